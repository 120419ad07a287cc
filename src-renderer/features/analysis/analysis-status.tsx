// The shared head of every analysis panel: status, request button, errors.
import type { AnalysisKind } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { formatClock } from '../../lib/format';
import type { AnalysisSlot } from '../../stores/analysis-store';
import { usePlayerStore } from '../../stores/player-store';

export function AnalysisHead({
  kind,
  slot,
  onRequest,
  disabled,
}: {
  kind: AnalysisKind;
  slot: AnalysisSlot;
  onRequest: () => void;
  disabled?: boolean;
}) {
  const t = useT();
  const status = slot.view?.status;
  const busy = slot.requesting || status === 'IN_PROGRESS';
  return (
    <div className="analysis-head">
      <span
        className={`status analysis-status-${status ?? 'none'}`}
        role="status"
        aria-live="polite"
        data-testid={`analysis-status-${kind}`}
        data-status={status ?? 'none'}
      >
        {status
          ? t(`analysis.status.${status}`)
          : slot.view === undefined && slot.loading
            ? t('common.loading')
            : t('analysis.status.none')}
      </span>
      <button
        type="button"
        className="button primary"
        onClick={onRequest}
        disabled={busy || disabled}
        data-testid={`analysis-request-${kind}`}
      >
        {status === 'COMPLETED' || status === 'FAILED' ? t('analysis.rerun') : t(`analysis.request.${kind}`)}
      </button>
      {slot.error && (
        <p className="field-error" role="alert">
          {slot.error.message}
        </p>
      )}
      {status === 'FAILED' && slot.view?.error && (
        <p className="field-error" role="alert">
          {slot.view.error}
        </p>
      )}
    </div>
  );
}

/** A link to a moment in the audio. */
export function MomentButton({ start }: { start: number }) {
  const t = useT();
  const time = formatClock(start);
  return (
    <button
      type="button"
      className="timestamp"
      onClick={() => usePlayerStore.getState().seek(start)}
      aria-label={t('analysis.jump', { time })}
    >
      {time}
    </button>
  );
}
