// "Recognizing speech · 40% · about 2 min left": what a running transcription is doing, how far it is
// and, once the measured speed says, how long it still needs. Used by the library row and the
// transcript view, so both say the same thing.
import { etaWords, type EtaEstimate } from '../../../src-shared/eta';
import { assertNever } from '../../../src-shared/assert-never';
import type { TranscriptionSummary } from '../../../src-shared/ipc-contract';
import type { T } from '../../i18n/use-t';
import { useT } from '../../i18n/use-t';
import { useEta } from './use-eta';

export interface ProgressWords {
  /** The stage in words; the status when the server does not say. */
  stage: string;
  percent: number | null;
  eta: string | null;
  /** "Working at 3.2× real time", when the audio's length is known. */
  speed: string | null;
}

export function progressWords(
  t: T,
  summary: Pick<TranscriptionSummary, 'status' | 'stage' | 'progress'>,
  estimate: EtaEstimate | null,
): ProgressWords {
  // Waiting for a free worker: nothing has moved, so no percent either.
  const waiting = summary.stage === 'queued';
  return {
    stage: summary.stage ? t(`stage.${summary.stage}`) : t(`status.${summary.status}`),
    percent: summary.progress === null || waiting ? null : Math.round(summary.progress * 100),
    eta: estimate?.seconds != null ? etaText(t, estimate.seconds) : null,
    speed: estimate?.speed ? t('progress.speed', { speed: estimate.speed.toFixed(1) }) : null,
  };
}

/** "Finding speech · 10%": the stage and how far, as the library row, the transcript view and the uploads queue say it. */
export function stageText(words: Pick<ProgressWords, 'stage' | 'percent'>): string {
  return words.percent === null ? words.stage : `${words.stage} · ${words.percent}%`;
}

export function etaText(t: T, seconds: number): string {
  const words = etaWords(seconds);
  switch (words.kind) {
    case 'under-minute':
      return t('progress.eta.underMinute');
    case 'minutes':
      return t('progress.eta.minutes', { minutes: words.minutes });
    case 'hours':
      return words.minutes === 0
        ? t('progress.eta.wholeHours', { hours: words.hours })
        : t('progress.eta.hours', { hours: words.hours, minutes: words.minutes });
    default:
      return assertNever(words, 'time left');
  }
}

/**
 * In a library row ("row"): the stage and percent in the status pill, the bar and the time left under
 * it, to fit the status column. In the transcript view ("view"): one line, then the bar.
 */
export function ProgressLine({ summary, variant }: { summary: TranscriptionSummary; variant: 'row' | 'view' }) {
  const t = useT();
  const words = progressWords(t, summary, useEta(summary));
  const percent = words.percent === null ? '' : ` · ${words.percent}%`;
  const bar = summary.progress !== null && summary.stage !== 'queued' && (
    <progress max={1} value={summary.progress} aria-label={t('progress.label', { name: summary.name })} />
  );
  const common = { 'data-testid': 'progress-line', 'data-stage': summary.stage ?? '', title: words.speed ?? undefined };
  if (variant === 'row') {
    return (
      <span className="cell-status progress-line" {...common}>
        <span className={`status status-${summary.status}`}>
          {words.stage}
          <span className="status-percent">{percent}</span>
        </span>
        <span className="progress-meter">
          {bar}
          {words.eta && <span className="progress-eta">{words.eta}</span>}
        </span>
      </span>
    );
  }
  return (
    <div className="progress-line progress-view" {...common}>
      <p className="progress-text">
        <strong>{words.stage}</strong>
        {percent}
        {words.eta && ` · ${words.eta}`}
      </p>
      {bar}
    </div>
  );
}
