// The transcript, segment by segment. The pane follows playback: only the segment holding the current
// word re-renders as time moves, so long transcripts stay smooth. A long transcript (hours, thousands
// of segments) is rendered in slices after the first screenful, so the player is usable at once.
// Following stops as soon as the user scrolls (wheel, touch, scroll keys, the scrollbar), and
// "Follow playback" resumes it. The transcript is one tab stop: ↑/↓ move between segments (a roving
// tabindex), so Tab goes from the transcript straight on to the analyses.
const FIRST_SLICE = 60;
const NEXT_SLICE = 400;
import { memo, startTransition, useEffect, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent } from 'react';
import type { TranscriptSegment } from '../../../src-shared/transcript-document';
import { wordSeparator } from '../../../src-shared/word-text';
import { useT } from '../../i18n/use-t';
import { formatClock } from '../../lib/format';
import { usePlayerStore } from '../../stores/player-store';
import { locateTime, selectSegments, selectSpeakerNames, speakersOf, useTranscriptStore } from '../../stores/transcript-store';
import { speakerColor, speakerName } from './speakers';

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

  useEffect(() => {
    if (!playing || !following || activeSegment < 0) return;
    pane.current?.querySelector(`[data-segment-index="${activeSegment}"]`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [activeSegment, playing, following]);

  // The user scrolling the page means "let me read": stop following until asked again.
  useEffect(() => {
    const scroller = scrollParent(pane.current);
    if (!scroller) return;
    const stop = () => setFollowing(false);
    const onKey = (event: KeyboardEvent) => {
      if (SCROLL_KEYS.has(event.key) && !(event.target instanceof HTMLElement && event.target.closest('input, textarea, select, [data-segment-index]'))) stop();
    };
    const onPointer = (event: PointerEvent) => event.target === scroller && stop(); // the scrollbar
    scroller.addEventListener('wheel', stop, { passive: true });
    scroller.addEventListener('touchmove', stop, { passive: true });
    scroller.addEventListener('keydown', onKey);
    scroller.addEventListener('pointerdown', onPointer);
    return () => {
      scroller.removeEventListener('wheel', stop);
      scroller.removeEventListener('touchmove', stop);
      scroller.removeEventListener('keydown', onKey);
      scroller.removeEventListener('pointerdown', onPointer);
    };
  }, []);

  const resumeFollowing = () => {
    setFollowing(true);
    // While playing, the follow effect scrolls; paused, bring the current place back into view here.
    if (!playing) pane.current?.querySelector(`[data-segment-index="${Math.max(0, activeSegment)}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };

  // ↑/↓ move focus between segments; the focused segment is the pane's one tab stop.
  const onKeyDown = (event: ReactKeyboardEvent<HTMLElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const target = event.target as HTMLElement;
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
    const index = (event.target).closest<HTMLElement>('[data-segment-index]')?.dataset.segmentIndex;
    if (index !== undefined) setFocusIndex(Number(index));
  };

  const hasLowConfidence = useMemo(() => segments.some((segment) => segment.words.some((word) => word.confidence !== null && word.confidence < 0.6)), [segments]);

  return (
    <section ref={pane} className="transcript-pane" aria-label={t('transcript.segments')} data-testid="transcript-pane" onKeyDown={onKeyDown} onFocus={onFocus}>
      {!following && (
        <button type="button" className="button primary follow-resume" onClick={resumeFollowing}>
          {t('transcript.follow.resume')}
        </button>
      )}
      {hasLowConfidence && <p className="hint">{t('transcript.lowConfidence')}</p>}
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
        />
      ))}
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
}

const SegmentView = memo(function SegmentView({ index, segment, activeWord, color, name, showSpeaker, tabbable, separator }: SegmentProps) {
  const tabIndex = tabbable ? 0 : -1;
  const t = useT();
  const [editing, setEditing] = useState(false);
  const time = formatClock(segment.start);
  const seek = usePlayerStore((state) => state.seek);

  const onWordClick = (event: MouseEvent<HTMLElement>) => {
    const word = (event.target as HTMLElement).closest<HTMLElement>('[data-start]');
    if (word) seek(Number(word.dataset.start));
  };

  return (
    <article className={activeWord !== null ? 'segment segment-active' : 'segment'} data-segment-index={index} data-segment-id={segment.id} style={{ borderLeftColor: color }}>
      <header className="segment-head">
        {showSpeaker && segment.speaker && <SpeakerChip speaker={segment.speaker} name={name} color={color} tabIndex={tabIndex} />}
        <button type="button" className="timestamp" tabIndex={tabIndex} onClick={() => seek(segment.start)} aria-label={t('transcript.word.seek', { time })}>
          {time}
        </button>
        {!editing && (
          <button type="button" className="button-quiet edit" tabIndex={tabIndex} onClick={() => setEditing(true)} aria-label={t('transcript.segment.edit', { time })}>
            ✎
          </button>
        )}
      </header>
      {editing ? (
        <SegmentEditor segment={segment} time={time} onDone={() => setEditing(false)} />
      ) : (
        <p className="segment-text" onClick={onWordClick}>
          {segment.words.length === 0
            ? segment.text
            : segment.words.map((word, wordIndex) => {
                const low = word.confidence !== null && word.confidence < 0.85;
                return (
                  <span key={wordIndex}>
                    <span
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
    </article>
  );
});

function SegmentEditor({ segment, time, onDone }: { segment: TranscriptSegment; time: string; onDone: () => void }) {
  const t = useT();
  const [text, setText] = useState(segment.text);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const saveSegment = useTranscriptStore((state) => state.saveSegment);
  const save = async () => {
    setBusy(true);
    const failure = await saveSegment(segment.id, text);
    setBusy(false);
    if (failure) setError(failure.message);
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

function SpeakerChip({ speaker, name, color, tabIndex }: { speaker: string; name: string; color: string; tabIndex: number }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const renameSpeaker = useTranscriptStore((state) => state.renameSpeaker);
  if (editing) {
    return (
      <form
        className="speaker-form"
        onSubmit={(event) => {
          event.preventDefault();
          const next = value.trim();
          if (next && next !== name) void renameSpeaker(speaker, next);
          setEditing(false);
        }}
      >
        <input autoFocus aria-label={t('transcript.speaker.name', { name })} value={value} onChange={(event) => setValue(event.target.value)} onKeyDown={(event) => event.key === 'Escape' && setEditing(false)} />
        <button type="submit" className="button-quiet">
          {t('common.save')}
        </button>
      </form>
    );
  }
  return (
    <button
      type="button"
      className="speaker-chip"
      tabIndex={tabIndex}
      style={{ color, borderColor: color }}
      aria-label={t('transcript.speaker.rename', { name })}
      onClick={() => {
        setValue(name);
        setEditing(true);
      }}
    >
      {name}
    </button>
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
