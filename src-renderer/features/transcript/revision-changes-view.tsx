// What one revision changed (History): each changed segment with its time and speaker, its words before
// and after with the changed ones highlighted, and the speaker names and dictionary replacements it set.
// Speakers are shown by the names the transcript view uses now.
import { useMemo } from 'react';
import type { RevisionChanges, RevisionSegmentChange } from '../../../src-shared/ipc-contract';
import { speakerDisplayName } from '../../../src-shared/speaker-names';
import { diffWords } from '../../../src-shared/word-diff';
import { useT } from '../../i18n/use-t';
import { formatClock } from '../../lib/format';
import { selectSegments, selectSpeakerNames, speakersOf, useTranscriptStore } from '../../stores/transcript-store';
import { speakerName } from './speakers';
import { WordDiffText } from './word-diff-text';

export function RevisionChangesView({ changes }: { changes: RevisionChanges }) {
  const t = useT();
  const segments = useTranscriptStore(selectSegments);
  const names = useTranscriptStore(selectSpeakerNames);
  const speakers = useMemo(() => speakersOf(segments), [segments]);
  const unknown = t('transcript.speaker.unknown');
  const nameOf = (label: string | null) => (label === null ? null : speakerName(label, names, unknown, speakers));

  const nothing =
    changes.segments.length === 0 && changes.speakerNames.length === 0 && changes.replacements.length === 0;
  if (nothing) return <p className="hint">{t('transcript.history.changes.none')}</p>;
  return (
    <>
      {changes.replacements.length > 0 && (
        <ul className="history-notes">
          {changes.replacements.map((r) => (
            <li key={`${r.pattern}\u0000${r.replacement}`}>{t('transcript.history.changes.replacement', { ...r })}</li>
          ))}
        </ul>
      )}
      {changes.speakerNames.length > 0 && (
        <ul className="history-notes">
          {changes.speakerNames.map((n) => {
            // The label's own "Speaker N", whatever it is called now: the names themselves are what changed.
            const speaker = speakerDisplayName(n.speaker, {}, speakers, unknown);
            const key = `transcript.history.changes.${nameChange(n)}` as const;
            return <li key={n.speaker}>{t(key, { speaker, before: n.before ?? '', after: n.after ?? '' })}</li>;
          })}
        </ul>
      )}
      {changes.segments.map((change) => (
        <SegmentChange key={change.segmentId} change={change} language={changes.language} nameOf={nameOf} />
      ))}
      {changes.moreSegments > 0 && (
        <p className="hint">{t('transcript.history.changes.more', { count: changes.moreSegments })}</p>
      )}
    </>
  );
}

function SegmentChange(props: {
  change: RevisionSegmentChange;
  language: string;
  nameOf: (label: string | null) => string | null;
}) {
  const t = useT();
  const { change } = props;
  const diff = useMemo(
    () => diffWords(change.before?.text ?? '', change.after?.text ?? '', props.language),
    [change, props.language],
  );
  const before = props.nameOf(change.before?.speaker ?? null);
  const after = props.nameOf(change.after?.speaker ?? null);
  const speaker =
    change.before && change.after && before !== after
      ? t('transcript.history.changes.speakerChanged', {
          before: before ?? t('transcript.history.changes.noSpeaker'),
          after: after ?? t('transcript.history.changes.noSpeaker'),
        })
      : (after ?? before);
  return (
    <div className="history-segment" data-testid="history-change">
      <p className="history-segment-where">
        <span className="timestamp-text">{formatClock(change.start)}</span>
        {speaker && <span> · {speaker}</span>}
        {!change.before && <span className="badge">{t('transcript.history.changes.added')}</span>}
        {!change.after && <span className="badge">{t('transcript.history.changes.removed')}</span>}
      </p>
      <dl className="history-diff">
        {change.before && (
          <>
            <dt>{t('transcript.history.changes.before')}</dt>
            <dd lang={props.language}>
              <WordDiffText runs={diff.before} separator={diff.separator} side="before" />
            </dd>
          </>
        )}
        {change.after && (
          <>
            <dt>{t('transcript.history.changes.after')}</dt>
            <dd lang={props.language}>
              <WordDiffText runs={diff.after} separator={diff.separator} side="after" />
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}

/** What a speaker-name change did: gave a name, took it away, or changed it (History's line and its details). */
export function nameChange(n: {
  before: string | null;
  after: string | null;
}): 'nameSet' | 'nameRemoved' | 'nameChanged' {
  return n.before === null ? 'nameSet' : n.after === null ? 'nameRemoved' : 'nameChanged';
}
