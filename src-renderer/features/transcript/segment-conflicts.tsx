// A conflict over segments (issue 24): edits made here met a teammate's change of the same segments on
// the server. Each segment is shown side by side, this computer's version and the server's with who made
// it, their differing words marked; the user keeps one, or writes a merged text (prefilled with this
// computer's), and one Save settles them all ('transcripts:settle-conflict'; the edits that met no conflict are
// sent with it). A conflict that is not about segments keeps the whole-text banner (conflict-banner.tsx).
import { useId, useMemo, useState } from 'react';
import type { ConflictSide, IpcError, SegmentConflict } from '../../../src-shared/ipc-contract';
import { diffWords } from '../../../src-shared/word-diff';
import { useLocale, useT } from '../../i18n/use-t';
import { formatClock } from '../../lib/format';
import {
  selectSegments,
  selectSpeakerNames,
  speakersOf,
  useTranscriptStore,
  type SettledSegment,
} from '../../stores/transcript-store';
import { speakerName } from './speakers';
import { WordDiffText } from './word-diff-text';
import { ErrorText } from '../../lib/error-details';

type Choice = 'mine' | 'theirs' | 'merged';

/** What a choice sends; null: nothing to send (the server's removal of the segment stands). */
function settled(conflict: SegmentConflict, choice: Choice, draft: string): SettledSegment | null {
  const { segmentId, mine, theirs } = conflict;
  switch (choice) {
    case 'mine':
      return mine && { segmentId, text: mine.text, speaker: mine.speaker };
    case 'theirs':
      return theirs && { segmentId, text: theirs.text, speaker: theirs.speaker };
    case 'merged':
      // The merged text keeps this computer's speaker (the server's when the segment went here).
      return { segmentId, text: draft, speaker: (mine ?? theirs)?.speaker ?? null };
  }
}

export function SegmentConflicts({ conflicts }: { conflicts: SegmentConflict[] }) {
  const t = useT();
  const titleId = useId();
  const introId = useId();
  const progressId = useId();
  const settleConflict = useTranscriptStore((state) => state.settleConflict);
  const [choices, setChoices] = useState<Record<number, Choice>>({});
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const chosen = conflicts.filter((c) => choices[c.segmentId]).length;

  const save = async () => {
    const segments = conflicts.flatMap((c) => {
      const choice = choices[c.segmentId];
      const draft = drafts[c.segmentId] ?? (c.mine ?? c.theirs)?.text ?? '';
      const segment = choice ? settled(c, choice, draft) : null;
      return segment ? [segment] : [];
    });
    setBusy(true);
    setError(null);
    setError(await settleConflict(segments));
    setBusy(false);
  };

  return (
    <section
      className="segment-conflicts"
      aria-labelledby={titleId}
      aria-describedby={introId}
      data-testid="segment-conflicts"
    >
      <h2 id={titleId} className="segment-conflicts-title">
        {t('transcript.conflict.segments.title')}
      </h2>
      <p id={introId}>{t('transcript.conflict.segments.intro')}</p>
      <ol className="segment-conflict-list">
        {conflicts.map((conflict) => (
          <li key={conflict.segmentId}>
            <SegmentConflictChoice
              conflict={conflict}
              choice={choices[conflict.segmentId] ?? null}
              draft={drafts[conflict.segmentId] ?? (conflict.mine ?? conflict.theirs)?.text ?? ''}
              onChoice={(choice) => setChoices((before) => ({ ...before, [conflict.segmentId]: choice }))}
              onDraft={(text) => setDrafts((before) => ({ ...before, [conflict.segmentId]: text }))}
            />
          </li>
        ))}
      </ol>
      <div className="conflict-actions">
        <button
          type="button"
          className="button primary"
          disabled={busy || chosen < conflicts.length}
          aria-describedby={progressId}
          onClick={() => void save()}
        >
          {t('transcript.conflict.segments.save')}
        </button>
        <span id={progressId} className="hint" aria-live="polite">
          {t('transcript.conflict.segments.chosen', { chosen, total: conflicts.length })}
        </span>
      </div>
      {error && (
        <div className="field-error" role="alert">
          <ErrorText error={error} />
        </div>
      )}
    </section>
  );
}

function SegmentConflictChoice(props: {
  conflict: SegmentConflict;
  choice: Choice | null;
  draft: string;
  onChoice: (choice: Choice) => void;
  onDraft: (text: string) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const name = useId();
  const mineId = useId();
  const theirsId = useId();
  const language = useTranscriptStore((state) => state.detail?.document?.language ?? 'en');
  const { conflict, choice } = props;
  const { mine, theirs } = conflict;
  const diff = useMemo(() => diffWords(mine?.text ?? '', theirs?.text ?? '', language), [mine, theirs, language]);
  const time = `${formatClock(conflict.start)}–${formatClock(conflict.end)}`;
  const authors =
    conflict.theirAuthors.length > 0
      ? new Intl.ListFormat(locale, { type: 'conjunction' }).format(conflict.theirAuthors)
      : null;
  const speakerShown = (mine?.speaker ?? null) !== null || (theirs?.speaker ?? null) !== null;
  const option = (value: Choice, label: string, disabled: boolean) => (
    <label className={disabled ? 'choice choice-disabled' : 'choice'}>
      <input
        type="radio"
        name={name}
        value={value}
        checked={choice === value}
        disabled={disabled}
        onChange={() => props.onChoice(value)}
      />{' '}
      {label}
    </label>
  );

  return (
    <fieldset className="segment-conflict" data-testid="segment-conflict">
      <legend>{t('transcript.conflict.segments.segment', { time })}</legend>
      <div className="conflict-sides">
        <div className="conflict-side" role="group" aria-labelledby={mineId}>
          <h3 id={mineId}>{t('transcript.conflict.segments.mine')}</h3>
          <Side side={mine} runs={diff.before} separator={diff.separator} kind="mine" speakerShown={speakerShown} />
        </div>
        <div className="conflict-side" role="group" aria-labelledby={theirsId}>
          <h3 id={theirsId}>
            {authors
              ? t('transcript.conflict.segments.theirs', { authors })
              : t('transcript.conflict.segments.theirsUnknown')}
          </h3>
          <Side side={theirs} runs={diff.after} separator={diff.separator} kind="theirs" speakerShown={speakerShown} />
        </div>
      </div>
      <div className="conflict-choices">
        {/* A segment merged away on the server cannot be given a text again (main refuses it). */}
        {option('mine', t('transcript.conflict.segments.keepMine'), mine === null || theirs === null)}
        {option('theirs', t('transcript.conflict.segments.keepTheirs'), false)}
        {option('merged', t('transcript.conflict.segments.merge'), theirs === null)}
      </div>
      {theirs === null && <p className="hint">{t('transcript.conflict.segments.onlyTheirs')}</p>}
      {choice === 'merged' && (
        <label className="conflict-merged">
          {t('transcript.conflict.segments.mergedLabel', { time })}
          <textarea lang={language} rows={3} value={props.draft} onChange={(e) => props.onDraft(e.target.value)} />
        </label>
      )}
    </fieldset>
  );
}

function Side(props: {
  side: ConflictSide | null;
  runs: ReturnType<typeof diffWords>['before'];
  separator: string;
  kind: 'mine' | 'theirs';
  speakerShown: boolean;
}) {
  const t = useT();
  const segments = useTranscriptStore(selectSegments);
  const names = useTranscriptStore(selectSpeakerNames);
  const speakers = useMemo(() => speakersOf(segments), [segments]);
  const language = useTranscriptStore((state) => state.detail?.document?.language ?? 'en');
  if (!props.side)
    return (
      <p className="hint">
        {t(
          props.kind === 'mine'
            ? 'transcript.conflict.segments.removedHere'
            : 'transcript.conflict.segments.removedThere',
        )}
      </p>
    );
  const { speaker } = props.side;
  return (
    <>
      {props.speakerShown && (
        <p className="conflict-speaker">
          {t('transcript.conflict.segments.speaker', {
            name:
              speaker === null
                ? t('transcript.conflict.segments.noSpeaker')
                : speakerName(speaker, names, t('transcript.speaker.unknown'), speakers),
          })}
        </p>
      )}
      <p className="conflict-text" lang={language}>
        <WordDiffText runs={props.runs} separator={props.separator} side={props.kind} />
      </p>
    </>
  );
}
