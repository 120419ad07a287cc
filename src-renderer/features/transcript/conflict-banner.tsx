// A correction that could not be sent (docs/decisions/0007-offline-edits.md): says why and lets the user
// keep this computer's text (sent over the server's) or take the server's. A conflict over segments is
// settled segment by segment instead (segment-conflicts.tsx).
import { useId, useState } from 'react';
import type { IpcError, SegmentConflict } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useTranscriptStore } from '../../stores/transcript-store';
import { SegmentConflicts } from './segment-conflicts';
import { ErrorText } from '../../lib/error-details';

export function ConflictBanner() {
  const t = useT();
  const conflict = useTranscriptStore((state) => state.detail?.conflict ?? null);
  const segments = useTranscriptStore((state) => state.detail?.conflictSegments ?? NONE);
  const resolveConflict = useTranscriptStore((state) => state.resolveConflict);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const titleId = useId();
  const reasonId = useId();
  // Choices made start again when the conflict itself changes (someone changed those segments again).
  if (segments.length > 0) return <SegmentConflicts key={JSON.stringify(segments)} conflicts={segments} />;
  if (!conflict) return null;

  const resolve = async (keep: 'local' | 'server') => {
    setBusy(true);
    setError(null);
    const failure = await resolveConflict(keep);
    setError(failure);
    setBusy(false);
  };

  return (
    <section
      className="conflict-banner"
      role="alert"
      aria-labelledby={titleId}
      aria-describedby={reasonId}
      data-testid="conflict-banner"
    >
      <strong id={titleId}>{t('transcript.conflict.title')}</strong>
      <div id={reasonId}>
        <ErrorText error={conflict} />
      </div>
      <div className="conflict-actions">
        <button type="button" disabled={busy} onClick={() => void resolve('local')}>
          {t('transcript.conflict.keepLocal')}
        </button>
        <button type="button" className="button-quiet" disabled={busy} onClick={() => void resolve('server')}>
          {t('transcript.conflict.useServer')}
        </button>
      </div>
      {error && (
        <div className="field-error">
          <ErrorText error={error} />
        </div>
      )}
    </section>
  );
}

const NONE: SegmentConflict[] = [];
