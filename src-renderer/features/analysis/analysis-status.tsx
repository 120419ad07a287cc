// The shared head of every analysis panel: status, request button, errors.
import type { AnalysisKind } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { formatClock } from '../../lib/format';
import type { AnalysisSlot } from '../../stores/analysis-store';
import { usePlayerStore } from '../../stores/player-store';
import { ErrorDetails, ErrorText } from '../../lib/error-details';
import { failureText } from '../../i18n/error-text';

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
  const outdated = status === 'COMPLETED' && slot.view?.outdated === true;
  return (
    <div className="analysis-head">
      <span
        className={`status analysis-status-${status ?? 'none'}`}
        role="status"
        aria-live="polite"
        data-testid={`analysis-status-${kind}`}
        data-status={status ?? 'none'}
        data-outdated={outdated}
      >
        {outdated
          ? t('analysis.status.outdated')
          : status
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
      {outdated && (
        <p className="analysis-outdated" data-testid={`analysis-outdated-${kind}`}>
          {t('analysis.outdated')}
        </p>
      )}
      {slot.error && (
        <div className="field-error" role="alert">
          <ErrorText error={slot.error} />
        </div>
      )}
      {status === 'FAILED' && slot.view && (
        <div className="field-error" role="alert" data-testid={`analysis-failure-${kind}`}>
          {failureText(t, slot.view.errorCode, true) ?? slot.view.error ?? t('library.rerun.noReason')}
          {slot.view.errorCode !== null && <ErrorDetails detail={slot.view.error} />}
        </div>
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
