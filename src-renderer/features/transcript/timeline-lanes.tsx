// Speaker lanes under the waveform (who speaks when) and, once analysed, an emotion lane with one
// coloured band per segment. Click a band to jump there.
import { memo, useCallback, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { EmotionEntry, EmotionLabel } from '../../../src-shared/analysis';
import { useT, type T } from '../../i18n/use-t';
import { analysisKey, selectSlot, useAnalysisStore } from '../../stores/analysis-store';
import { usePlayerStore } from '../../stores/player-store';
import { selectSegments, selectSpeakerNames, speakersOf, useTranscriptStore } from '../../stores/transcript-store';
import { speakerColor, speakerName } from './speakers';
import { speakersByNumber } from '../../../src-shared/speaker-names';
import { fractionAt, playheadLeft, timeAtX, xAt } from './time-axis';
import { ThisIsForm } from '../voices/this-is-form';
import { useEscape } from '../../lib/use-escape';
import { useOutsideClick } from '../../lib/use-outside-click';

export const EMOTION_COLORS: Record<EmotionLabel, string> = {
  anger: '#d64545',
  disgust: '#7a9a2e',
  fear: '#8e5bd0',
  joy: '#f2b01e',
  neutral: '#c9ced6',
  sadness: '#3f7fd9',
  surprise: '#e0762f',
};

const WIDTH = 1000;

export function TimelineLanes() {
  const t = useT();
  const id = useTranscriptStore((state) => state.id);
  const segments = useTranscriptStore(selectSegments);
  const names = useTranscriptStore(selectSpeakerNames);
  const duration = usePlayerStore((state) => state.duration) || segments.at(-1)?.end || 1;
  const emotion = useAnalysisStore(selectSlot(analysisKey(id ?? '', 'emotion')));
  const speakers = useMemo(() => speakersOf(segments), [segments]);
  const view = emotion.view;
  const emotions = useMemo(
    () => (view?.status === 'COMPLETED' ? (view.emotions ?? []).filter((entry) => entry.segment_id !== null) : []),
    [view],
  );

  const seekFromClick = useCallback(
    (event: MouseEvent<SVGSVGElement>) => {
      const box = event.currentTarget.getBoundingClientRect();
      if (box.width > 0) usePlayerStore.getState().seek(timeAtX(event.clientX, box.left, box.width, duration));
    },
    [duration],
  );

  const rows = useMemo(() => lanesOf(segments, speakers, names, emotions, t), [segments, speakers, names, emotions, t]);

  return (
    <div className="timeline" role="group" aria-label={t('timeline.label')} data-testid="timeline">
      <Lanes rows={rows} duration={duration} onSeek={seekFromClick} />
      <Playhead duration={duration} />
    </div>
  );
}

type Row = {
  key: string;
  /** The speaker label of a speaker's lane: its name offers "This is…". */
  speaker?: string;
  label: string;
  color?: string;
  bands: Array<{ start: number; end: number; color: string; title: string }>;
};

function lanesOf(
  segments: ReturnType<typeof selectSegments>,
  speakers: string[],
  names: Record<string, string>,
  emotions: EmotionEntry[],
  t: T,
): Row[] {
  // By number, not by first turn: a split to a new speaker early on would list Speaker 3 above Speaker 2.
  const lanes = speakers.length > 0 ? speakersByNumber(speakers) : [null];
  const rows: Row[] = lanes.map((speaker) => ({
    key: speaker ?? 'all',
    ...(speaker ? { speaker } : {}),
    label: speakerName(speaker, names, t('transcript.speaker.unknown'), speakers),
    color: speakerColor(speakers, speaker),
    bands: segments
      .filter((segment) => segment.speaker === speaker)
      .map((segment) => ({
        start: segment.start,
        end: segment.end,
        color: speakerColor(speakers, speaker),
        title: segment.text,
      })),
  }));
  if (emotions.length > 0) {
    rows.push({
      key: 'emotion',
      label: t('timeline.emotions'),
      bands: emotions.map((entry) => ({
        start: entry.start,
        end: entry.end,
        color: EMOTION_COLORS[entry.label],
        title: `${t(`emotion.${entry.label}`)} ${(entry.score * 100).toFixed(0)}%`,
      })),
    });
  }

  return rows;
}

/** The lanes re-render only when the transcript or analyses change, never as time moves. */
const Lanes = memo(function Lanes({
  rows,
  duration,
  onSeek,
}: {
  rows: Row[];
  duration: number;
  onSeek: (event: MouseEvent<SVGSVGElement>) => void;
}) {
  const x = (seconds: number) => xAt(seconds, duration, WIDTH);
  return (
    <>
      {rows.map((row) => (
        <div className="lane" key={row.key} data-lane={row.key}>
          {row.speaker ? (
            <SpeakerLaneLabel speaker={row.speaker} label={row.label} color={row.color} />
          ) : (
            <span className="lane-label">
              {row.color && <span className="swatch" style={{ background: row.color }} aria-hidden="true" />}
              {row.label}
            </span>
          )}
          <svg
            className="lane-track"
            viewBox={`0 0 ${WIDTH} 10`}
            preserveAspectRatio="none"
            onClick={onSeek}
            aria-hidden="true"
          >
            {row.bands.map((band, index) => (
              <rect
                key={index}
                x={x(band.start)}
                width={Math.max(1, x(band.end) - x(band.start))}
                y={1}
                height={8}
                rx={1}
                fill={band.color}
                opacity={row.key === 'emotion' ? 0.9 : 0.75}
              >
                <title>{band.title}</title>
              </rect>
            ))}
          </svg>
        </div>
      ))}
    </>
  );
});

/**
 * A speaker's lane name: a button opening "This is…" for that speaker (decision 0075). Not a tab stop: one
 * per speaker would lengthen the way through the page, and the keyboard reaches "This is…" from the speaker
 * chip of the segment in focus.
 */
function SpeakerLaneLabel({ speaker, label, color }: { speaker: string; label: string; color?: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  // Closes as the other popovers do: a press outside it, or Escape (focus back on the name).
  const anchor = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useOutsideClick(open, () => setOpen(false), anchor);
  useEscape(open, () => setOpen(false), button);
  return (
    <span ref={anchor} className="lane-label lane-label-speaker">
      <button
        ref={button}
        type="button"
        className="lane-label-button"
        tabIndex={-1}
        aria-expanded={open}
        aria-label={t('voices.thisIsFor', { name: label })}
        onClick={() => setOpen(!open)}
      >
        {color && <span className="swatch" style={{ background: color }} aria-hidden="true" />}
        {label}
      </button>
      {open && (
        <span className="lane-popover">
          <ThisIsForm speaker={speaker} name={label} onDone={() => setOpen(false)} />
        </span>
      )}
    </span>
  );
}

/** One line over every lane at the current time: the only part that moves during playback. */
function Playhead({ duration }: { duration: number }) {
  const fraction = usePlayerStore((state) => fractionAt(state.currentTime, duration));
  return <span className="playhead" aria-hidden="true" style={{ left: playheadLeft(fraction) }} />;
}
