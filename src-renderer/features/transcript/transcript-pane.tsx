// The transcript, segment by segment. The pane follows playback: only the segment holding the current
// word re-renders as time moves, so long transcripts stay smooth. A long transcript (hours, thousands
// of segments) is rendered in slices after the first screenful, so the player is usable at once.
// Following stops as soon as the user scrolls (wheel, touch, scroll keys, the scrollbar), and
// "Follow playback" resumes it. The transcript is one tab stop: ↑/↓ move between segments (a roving
// tabindex), so Tab goes from the transcript straight on to the analyses.
const FIRST_SLICE = 60;
const NEXT_SLICE = 400;
import {
  memo,
  startTransition,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent,
} from 'react';
import type { TranscriptSegment } from '../../../src-shared/transcript-document';
import { nextSpeakerLabel, type EditOperation } from '../../../src-shared/transcript-editing';
import { wordSeparator } from '../../../src-shared/word-text';
import { isUncertain } from '../../../src-shared/word-confidence';
import { useT } from '../../i18n/use-t';
import { formatClock } from '../../lib/format';
import { useEscape } from '../../lib/use-escape';
import { useOutsideClick } from '../../lib/use-outside-click';
import { usePopoverPlacement } from '../../lib/use-popover-placement';
import { usePlayerStore } from '../../stores/player-store';
import {
  locateTime,
  selectSegments,
  selectSpeakerNames,
  speakersOf,
  useTranscriptStore,
} from '../../stores/transcript-store';
import { speakerColor, speakerName } from './speakers';
import { ThisIsForm } from '../voices/this-is-form';
import { useErrorText } from '../../i18n/error-text';

export function TranscriptPane() {
  const t = useT();
  const segments = useTranscriptStore(selectSegments);
  const names = useTranscriptStore(selectSpeakerNames);
  const speakers = useMemo(() => speakersOf(segments), [segments]);
  // A string so the pane re-renders only when the current word changes, not on every frame.
  const active = usePlayerStore((state) => locateTime(segments, state.currentTime).join(':'));
  const playing = usePlayerStore((state) => state.playing);
  const [activeSegment, activeWord] = active.split(':').map(Number) as [number, number];
  const pane = useRef<HTMLElement>(null);
  const transcriptId = useTranscriptStore((state) => state.id);
  // Japanese and other languages written without spaces show their words unspaced.
  const separator = useTranscriptStore((state) => wordSeparator(state.detail?.document?.language ?? 'en'));
  const [limit, setLimit] = useState(FIRST_SLICE);
  const [following, setFollowing] = useState(true);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const tabbableIndex = focusIndex ?? Math.max(0, activeSegment);

  useEffect(() => setLimit(FIRST_SLICE), [transcriptId]);
  useEffect(() => {
    if (limit >= segments.length) return;
    const timer = setTimeout(() => startTransition(() => setLimit((current) => current + NEXT_SLICE)), 0);
    return () => clearTimeout(timer);
  }, [limit, segments.length]);
  // Whatever is playing is always rendered, even before its slice arrives.
  const shown = Math.min(segments.length, Math.max(limit, activeSegment + 20));

  // A jump (a too-fast subtitle, a summary item, the waveform) shows where it went, playing or not.
  const seeks = usePlayerStore((state) => state.seeks);
  const shownSeeks = useRef(seeks);
  useEffect(() => {
    if (seeks === shownSeeks.current || activeSegment < 0) return;
    shownSeeks.current = seeks;
    pane.current
      ?.querySelector(`[data-segment-index="${activeSegment}"]`)
      ?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [seeks, activeSegment]);

  useEffect(() => {
    if (!playing || !following || activeSegment < 0) return;
    pane.current
      ?.querySelector(`[data-segment-index="${activeSegment}"]`)
      ?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [activeSegment, playing, following]);

  // The user scrolling the page means "let me read": stop following until asked again.
  useEffect(() => {
    const scroller = scrollParent(pane.current);
    if (!scroller) return;
    // A transcript that fits has nothing to scroll away from: following goes on, and "Follow playback"
    // is not offered for a wheel turned over it.
    const stop = () => {
      if (scroller.scrollHeight > scroller.clientHeight) setFollowing(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (
        SCROLL_KEYS.has(event.key) &&
        !(event.target instanceof HTMLElement && event.target.closest('input, textarea, select, [data-segment-index]'))
      )
        stop();
    };
    const onPointer = (event: PointerEvent) => event.target === scroller && stop(); // the scrollbar
    // A window grown (or a transcript shortened) until it fits: nothing is left to scroll away from, so
    // following goes on and "Follow playback" goes.
    const resized =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            if (scroller.scrollHeight <= scroller.clientHeight) setFollowing(true);
          });
    resized?.observe(scroller);
    if (pane.current) resized?.observe(pane.current);
    scroller.addEventListener('wheel', stop, { passive: true });
    scroller.addEventListener('touchmove', stop, { passive: true });
    scroller.addEventListener('keydown', onKey);
    scroller.addEventListener('pointerdown', onPointer);
    return () => {
      scroller.removeEventListener('wheel', stop);
      scroller.removeEventListener('touchmove', stop);
      scroller.removeEventListener('keydown', onKey);
      scroller.removeEventListener('pointerdown', onPointer);
      resized?.disconnect();
    };
  }, []);

  const resumeFollowing = () => {
    setFollowing(true);
    // While playing, the follow effect scrolls; paused, bring the current place back into view here.
    if (!playing)
      pane.current
        ?.querySelector(`[data-segment-index="${Math.max(0, activeSegment)}"]`)
        ?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };

  // ↑/↓ move focus between segments; the focused segment is the pane's one tab stop. Alt+←/→ move
  // between words (across segments).
  const onKeyDown = (event: ReactKeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (
      event.altKey &&
      (event.key === 'ArrowLeft' || event.key === 'ArrowRight') &&
      !target.closest('input, textarea, select, form')
    ) {
      const words = [...(pane.current?.querySelectorAll<HTMLElement>('[data-testid="word"]') ?? [])];
      const at = words.indexOf(target);
      const next = words[at < 0 ? 0 : at + (event.key === 'ArrowRight' ? 1 : -1)];
      if (next) {
        event.preventDefault();
        next.focus();
      }
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    if (target.closest('input, textarea, select, form')) return;
    const current = target.closest<HTMLElement>('[data-segment-index]');
    if (!current) return;
    const next = Number(current.dataset.segmentIndex) + (event.key === 'ArrowDown' ? 1 : -1);
    const button = pane.current?.querySelector<HTMLElement>(`[data-segment-index="${next}"] .timestamp`);
    if (!button) return;
    event.preventDefault();
    setFocusIndex(next);
    button.focus();
  };
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const index = event.target.closest<HTMLElement>('[data-segment-index]')?.dataset.segmentIndex;
    if (index !== undefined) setFocusIndex(Number(index));
  };

  const speakerOptions = useMemo(
    () =>
      speakers.map((label) => ({ label, name: speakerName(label, names, t('transcript.speaker.unknown'), speakers) })),
    [speakers, names, t],
  );

  const hasLowConfidence = useMemo(() => segments.some((segment) => segment.words.some(isUncertain)), [segments]);
  const hasReplaced = useMemo(() => segments.some((segment) => segment.words.some((w) => w.replaced)), [segments]);

  return (
    <section
      ref={pane}
      className="transcript-pane"
      aria-label={t('transcript.segments')}
      data-testid="transcript-pane"
      onKeyDown={onKeyDown}
      onFocus={onFocus}
    >
      {(hasLowConfidence || hasReplaced) && (
        <p className="hint" data-testid="transcript-legend">
          {[hasLowConfidence && t('transcript.lowConfidence'), hasReplaced && t('transcript.replacedLegend')]
            .filter(Boolean)
            .join(' ')}
        </p>
      )}
      {segments.slice(0, shown).map((segment, index) => (
        <SegmentView
          key={segment.id}
          index={index}
          segment={segment}
          activeWord={index === activeSegment ? activeWord : null}
          color={speakerColor(speakers, segment.speaker)}
          name={speakerName(segment.speaker, names, t('transcript.speaker.unknown'), speakers)}
          showSpeaker={segment.speaker !== null && (index === 0 || segments[index - 1]!.speaker !== segment.speaker)}
          separator={separator}
          tabbable={index === tabbableIndex}
          isLast={index === segments.length - 1}
          speakerOptions={speakerOptions}
        />
      ))}
      {!following && (
        <div className="follow-dock">
          <button type="button" className="button primary follow-resume" onClick={resumeFollowing}>
            {t('transcript.follow.resume')}
          </button>
        </div>
      )}
    </section>
  );
}

interface SegmentProps {
  index: number;
  segment: TranscriptSegment;
  /** The word being played in this segment: an index, -1 between words, null when elsewhere. */
  activeWord: number | null;
  color: string;
  name: string;
  showSpeaker: boolean;
  /** Between words: " ", or "" for languages written without spaces. */
  separator: string;
  /** The pane's one tab stop (roving tabindex). */
  tabbable: boolean;
  /** The last segment has nothing to merge with. */
  isLast: boolean;
  /** The transcript's speakers, by the user's names, for changing this segment's. */
  speakerOptions: Array<{ label: string; name: string }>;
}

const SegmentView = memo(function SegmentView({
  index,
  segment,
  activeWord,
  color,
  name,
  showSpeaker,
  tabbable,
  separator,
  isLast,
  speakerOptions,
}: SegmentProps) {
  const tabIndex = tabbable ? 0 : -1;
  const t = useT();
  const errorText = useErrorText();
  const [editing, setEditing] = useState(false);
  const [editingWord, setEditingWord] = useState<number | null>(null);
  const [wordMenu, setWordMenu] = useState<{ wordIndex: number; left: number; top: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const time = formatClock(segment.start);
  const seek = usePlayerStore((state) => state.seek);
  const editDocument = useTranscriptStore((state) => state.editDocument);
  const article = useRef<HTMLElement>(null);

  const wordIndexOf = (target: EventTarget) => {
    const index = (target as HTMLElement).closest<HTMLElement>('[data-word-index]')?.dataset.wordIndex;
    return index === undefined ? null : Number(index);
  };
  const focusWord = (wordIndex: number) =>
    requestAnimationFrame(() =>
      article.current
        ?.querySelector<HTMLElement>(`[data-word-index="${Math.min(wordIndex, segment.words.length - 1)}"]`)
        ?.focus(),
    );
  const run = async (operation: EditOperation) => {
    setWordMenu(null);
    const failure = await editDocument(operation);
    setError(failure ? errorText(failure) : null);
  };
  const split = (wordIndex: number) => void run({ kind: 'split', segmentId: segment.id, wordIndex });
  const merge = () => void run({ kind: 'merge', segmentId: segment.id });

  const onWordClick = (event: MouseEvent<HTMLElement>) => {
    const word = (event.target as HTMLElement).closest<HTMLElement>('[data-start]');
    if (word) seek(Number(word.dataset.start));
  };
  const onWordKey = (event: ReactKeyboardEvent<HTMLElement>) => {
    const wordIndex = wordIndexOf(event.target);
    if (wordIndex === null || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Enter') setEditingWord(wordIndex);
    else if (event.key.toLowerCase() === 's' && wordIndex > 0) split(wordIndex);
    else if (event.key.toLowerCase() === 'm' && !isLast) merge();
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  const onWordMenu = (event: MouseEvent<HTMLElement>) => {
    const wordIndex = wordIndexOf(event.target);
    if (wordIndex === null || !article.current) return;
    event.preventDefault();
    const box = article.current.getBoundingClientRect();
    const word = (event.target as HTMLElement).getBoundingClientRect();
    setWordMenu({ wordIndex, left: word.left - box.left, top: word.bottom - box.top + 4 });
  };

  return (
    <article
      ref={article}
      className={activeWord !== null ? 'segment segment-active' : 'segment'}
      data-segment-index={index}
      data-segment-id={segment.id}
      style={{ borderLeftColor: color }}
    >
      <header className="segment-head">
        {showSpeaker && segment.speaker && (
          <SpeakerChip
            speaker={segment.speaker}
            name={name}
            color={color}
            tabIndex={tabIndex}
            speakerOptions={speakerOptions}
            onRun={run}
          />
        )}
        <button
          type="button"
          className="timestamp"
          tabIndex={tabIndex}
          onClick={() => seek(segment.start)}
          aria-label={t('transcript.word.seek', { time })}
        >
          {time}
        </button>
        {!editing && (
          <button
            type="button"
            className="button-quiet edit"
            tabIndex={tabIndex}
            onClick={() => setEditing(true)}
            aria-label={t('transcript.segment.edit', { time })}
          >
            ✎
          </button>
        )}
        <SegmentMenu
          segmentId={segment.id}
          speaker={segment.speaker}
          time={time}
          isLast={isLast}
          speakerOptions={speakerOptions}
          tabIndex={tabIndex}
          onRun={run}
        />
      </header>
      {editing ? (
        <SegmentEditor segment={segment} time={time} onDone={() => setEditing(false)} />
      ) : (
        <p
          className="segment-text"
          onClick={onWordClick}
          onDoubleClick={(event) => setEditingWord(wordIndexOf(event.target))}
          onKeyDown={onWordKey}
          onContextMenu={onWordMenu}
        >
          {segment.words.length === 0
            ? segment.text
            : segment.words.map((word, wordIndex) => {
                const low = isUncertain(word);
                if (wordIndex === editingWord) {
                  return (
                    <span key={wordIndex}>
                      <WordEditor
                        word={word.word}
                        onCancel={() => {
                          setEditingWord(null);
                          focusWord(wordIndex);
                        }}
                        onSave={async (text) => {
                          const failure =
                            text === word.word
                              ? null
                              : await editDocument({ kind: 'word', segmentId: segment.id, wordIndex, text });
                          setError(failure ? errorText(failure) : null);
                          setEditingWord(null);
                          focusWord(wordIndex);
                        }}
                      />
                      {separator}
                    </span>
                  );
                }
                return (
                  <span key={wordIndex}>
                    <span
                      tabIndex={-1}
                      data-word-index={wordIndex}
                      aria-label={t('word.label', { word: word.word })}
                      className={`word${wordIndex === activeWord ? ' word-active' : ''}${low ? ' word-low' : ''}${word.replaced ? ' word-replaced' : ''}`}
                      data-start={word.start}
                      data-testid="word"
                      data-replaced={word.replaced ? word.replaced.original : undefined}
                      title={
                        word.replaced
                          ? t('transcript.word.replaced', { original: word.replaced.original })
                          : word.confidence !== null
                            ? `${Math.round(word.confidence * 100)}%`
                            : undefined
                      }
                      style={low ? ({ '--doubt': (1 - word.confidence!).toFixed(2) } as CSSProperties) : undefined}
                    >
                      {word.word}
                    </span>
                    {separator}
                  </span>
                );
              })}
        </p>
      )}
      {wordMenu && segment.words[wordMenu.wordIndex] && (
        <WordMenu
          key={wordMenu.wordIndex}
          word={segment.words[wordMenu.wordIndex]!.word}
          original={segment.words[wordMenu.wordIndex]!.replaced?.original}
          onRestore={(original) => {
            setWordMenu(null);
            focusWord(wordMenu.wordIndex);
            void run({ kind: 'word', segmentId: segment.id, wordIndex: wordMenu.wordIndex, text: original });
          }}
          position={wordMenu}
          canSplit={wordMenu.wordIndex > 0}
          canMerge={!isLast}
          onEdit={() => {
            setEditingWord(wordMenu.wordIndex);
            setWordMenu(null);
          }}
          onSplit={() => split(wordMenu.wordIndex)}
          speakerOptions={speakerOptions.filter((option) => option.label !== segment.speaker)}
          onSplitTo={(speaker) =>
            void run({ kind: 'split', segmentId: segment.id, wordIndex: wordMenu.wordIndex, speaker })
          }
          newSpeaker={nextSpeakerLabel(speakerOptions.map((option) => option.label))}
          onMerge={merge}
          onClose={() => {
            focusWord(wordMenu.wordIndex);
            setWordMenu(null);
          }}
        />
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
});

/** One word, edited in place: Enter saves, Escape (or leaving the field) cancels. */
function WordEditor({
  word,
  onSave,
  onCancel,
}: {
  word: string;
  onSave: (text: string) => Promise<void>;
  onCancel: () => void;
}) {
  const t = useT();
  const [text, setText] = useState(word);
  const saving = useRef(false);
  return (
    <input
      className="word-editor"
      autoFocus
      aria-label={t('word.edit', { word })}
      title={t('word.editHint')}
      value={text}
      size={Math.max(2, [...text].length + 1)}
      onFocus={(event) => event.target.select()}
      onChange={(event) => setText(event.target.value)}
      onBlur={() => !saving.current && onCancel()}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Escape') {
          event.preventDefault();
          onCancel();
        } else if (event.key === 'Enter') {
          event.preventDefault();
          saving.current = true;
          void onSave(text);
        }
      }}
    />
  );
}

function WordMenu(props: {
  word: string;
  /** What was heard where a dictionary rewrote the word (a vocabulary guess or a forced replacement). */
  original?: string;
  onRestore: (original: string) => void;
  position: { left: number; top: number };
  canSplit: boolean;
  canMerge: boolean;
  onEdit: () => void;
  onSplit: () => void;
  /** The speakers the second part may get (the segment's own left out), and the label a new one gets. */
  speakerOptions: Array<{ label: string; name: string }>;
  newSpeaker: string;
  onSplitTo: (speaker: string) => void;
  onMerge: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const menu = useRef<HTMLDivElement>(null);
  // "Split here and change speaker…" turns the menu into the list of speakers to give the second part.
  const [choosing, setChoosing] = useState(false);
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>('button')?.focus();
  }, [choosing]);
  useOutsideClick(true, props.onClose, menu);
  return (
    <div
      ref={menu}
      className="word-menu"
      role="menu"
      aria-label={t('word.actions', { word: props.word })}
      style={{ left: props.position.left, top: props.position.top }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          props.onClose();
        }
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          const items = [...(menu.current?.querySelectorAll<HTMLElement>('button:not(:disabled)') ?? [])];
          const at = items.indexOf(document.activeElement as HTMLElement);
          items[(at + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
        }
      }}
    >
      {choosing ? (
        <>
          {props.speakerOptions.map((option) => (
            <button key={option.label} type="button" role="menuitem" onClick={() => props.onSplitTo(option.label)}>
              {option.name}
            </button>
          ))}
          <button type="button" role="menuitem" onClick={() => props.onSplitTo(props.newSpeaker)}>
            {t('speaker.new')}
          </button>
        </>
      ) : (
        <>
          <button type="button" role="menuitem" onClick={props.onEdit}>
            {t('word.editMenu')} <kbd>Enter</kbd>
          </button>
          {props.original !== undefined && (
            <button type="button" role="menuitem" onClick={() => props.onRestore(props.original!)}>
              {t('word.restoreHeard', { original: props.original })}
            </button>
          )}
          <button type="button" role="menuitem" onClick={props.onSplit} disabled={!props.canSplit}>
            {t('word.split')} <kbd>S</kbd>
          </button>
          <button type="button" role="menuitem" onClick={() => setChoosing(true)} disabled={!props.canSplit}>
            {t('word.splitSpeaker')}
          </button>
          <button type="button" role="menuitem" onClick={props.onMerge} disabled={!props.canMerge}>
            {t('segment.merge')} <kbd>M</kbd>
          </button>
        </>
      )}
    </div>
  );
}

/** The segment's own actions: merge with the next one, and who speaks in it. */
function SegmentMenu(props: {
  segmentId: number;
  speaker: string | null;
  time: string;
  isLast: boolean;
  speakerOptions: Array<{ label: string; name: string }>;
  tabIndex: number;
  onRun: (operation: EditOperation) => Promise<void>;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const id = useId();
  const anchor = useRef<HTMLSpanElement>(null);
  useOutsideClick(open, () => setOpen(false), anchor);
  return (
    <span ref={anchor} className="popover-anchor segment-menu">
      <button
        type="button"
        className="button-quiet edit"
        tabIndex={props.tabIndex}
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        aria-label={t('segment.more', { time: props.time })}
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <div
          id={`${id}-menu`}
          className="popover segment-popover"
          onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
        >
          <button
            type="button"
            className="button-quiet"
            disabled={props.isLast}
            onClick={() => {
              setOpen(false);
              void props.onRun({ kind: 'merge', segmentId: props.segmentId });
            }}
          >
            {t('segment.merge')}
          </button>
          {props.speakerOptions.length > 0 && (
            <label className="field">
              <span>{t('segment.speaker')}</span>
              <select
                value={props.speaker ?? ''}
                onChange={(event) => {
                  setOpen(false);
                  void props.onRun({ kind: 'speaker', segmentId: props.segmentId, speaker: event.target.value });
                }}
              >
                {props.speaker === null && <option value="">{t('transcript.speaker.unknown')}</option>}
                {props.speakerOptions.map((option) => (
                  <option key={option.label} value={option.label}>
                    {option.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <button
            type="button"
            className="button-quiet"
            onClick={() => {
              setOpen(false);
              const speaker = nextSpeakerLabel(props.speakerOptions.map((option) => option.label));
              void props.onRun({ kind: 'speaker', segmentId: props.segmentId, speaker });
            }}
          >
            {t('speaker.new')}
          </button>
        </div>
      )}
    </span>
  );
}

function SegmentEditor({ segment, time, onDone }: { segment: TranscriptSegment; time: string; onDone: () => void }) {
  const errorText = useErrorText();
  const t = useT();
  const [text, setText] = useState(segment.text);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const saveSegment = useTranscriptStore((state) => state.saveSegment);
  const save = async () => {
    setBusy(true);
    const failure = await saveSegment(segment.id, text);
    setBusy(false);
    if (failure) setError(errorText(failure));
    else onDone();
  };
  return (
    <div className="segment-editor">
      <textarea
        autoFocus
        aria-label={t('transcript.segment.text', { time })}
        aria-describedby={`hint-${segment.id}`}
        value={text}
        rows={Math.max(2, Math.ceil(text.length / 80))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onDone();
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void save();
        }}
      />
      <small className="hint" id={`hint-${segment.id}`}>
        {t('transcript.segment.saveHint')}
      </small>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row-actions">
        <button type="button" className="button primary" onClick={() => void save()} disabled={busy}>
          {t('common.save')}
        </button>
        <button type="button" className="button-quiet" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}

/**
 * A speaker's name at the start of their turn: click to rename them, or merge them into another speaker.
 * The editor is a popover under the chip (above it low in the window), so the turn's time and buttons stay
 * where they are; like the other popovers it closes on a press outside (another tab, another segment) and
 * on Escape, giving focus back to the chip.
 */
function SpeakerChip({
  speaker,
  name,
  color,
  tabIndex,
  speakerOptions,
  onRun,
}: {
  speaker: string;
  name: string;
  color: string;
  tabIndex: number;
  speakerOptions: Array<{ label: string; name: string }>;
  onRun: (operation: EditOperation) => Promise<void>;
}) {
  const t = useT();
  const hintId = useId();
  const popoverId = useId();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  // Named meanwhile ("This is…" below, or on another device): the box shows the new name, not the one it opened with.
  const [shownName, setShownName] = useState(name);
  if (shownName !== name) {
    setShownName(name);
    setValue(name);
  }
  const anchor = useRef<HTMLSpanElement>(null);
  const chip = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const close = () => setEditing(false);
  useOutsideClick(editing, close, anchor);
  useEscape(editing, close, chip);
  const placement = usePopoverPlacement(editing, chip, popover);
  const renameSpeaker = useTranscriptStore((state) => state.renameSpeaker);
  const others = speakerOptions.filter((option) => option.label !== speaker);
  return (
    <span ref={anchor} className="popover-anchor speaker-menu">
      <button
        ref={chip}
        type="button"
        className="speaker-chip"
        tabIndex={tabIndex}
        style={{ color, borderColor: color }}
        aria-label={t('transcript.speaker.rename', { name })}
        aria-expanded={editing}
        aria-controls={editing ? popoverId : undefined}
        onClick={() => {
          setValue(name);
          setEditing(!editing);
        }}
      >
        {name}
      </button>
      {editing && (
        <div
          ref={popover}
          id={popoverId}
          role="dialog"
          aria-label={t('transcript.speaker.rename', { name })}
          className={`popover speaker-popover ${placement.className}`}
          style={placement.style}
        >
          <form
            className="speaker-form"
            onSubmit={(event) => {
              event.preventDefault();
              const next = value.trim();
              if (next && next !== name) void renameSpeaker(speaker, next);
              close();
            }}
          >
            <input
              autoFocus
              aria-label={t('transcript.speaker.name', { name })}
              aria-describedby={hintId}
              value={value}
              // Typing replaces the old name, as in the word editor, rather than appending to "Speaker 1".
              onFocus={(event) => event.target.select()}
              onChange={(event) => setValue(event.target.value)}
            />
            <button type="submit" className="button-quiet">
              {t('common.save')}
            </button>
          </form>
          {others.length > 0 && (
            <label className="field">
              <span>{t('speaker.mergeInto')}</span>
              <select
                value=""
                aria-label={t('speaker.mergeIntoLabel', { name })}
                onChange={(event) => {
                  close();
                  if (event.target.value)
                    void onRun({ kind: 'merge-speakers', from: speaker, into: event.target.value });
                }}
              >
                <option value="">{t('speaker.mergeChoose')}</option>
                {others.map((option) => (
                  <option key={option.label} value={option.label}>
                    {option.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {/* Two ways to name a speaker sit together here: say how they differ. */}
          <p className="hint" id={hintId} data-testid="speaker-name-routes">
            {t('transcript.speaker.renameHint')}
          </p>
          <ThisIsForm speaker={speaker} name={name} onDone={close} />
        </div>
      )}
    </span>
  );
}

// Not Space: it plays and pauses here.
const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End', 'ArrowUp', 'ArrowDown']);

/** The nearest ancestor that scrolls vertically (the app's main area), or the document. */
function scrollParent(element: HTMLElement | null): HTMLElement | null {
  for (let node = element?.parentElement ?? null; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll') return node;
  }
  return (document.scrollingElement as HTMLElement | null) ?? null;
}
