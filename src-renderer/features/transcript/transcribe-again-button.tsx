// "Transcribe again…" on a finished transcription (decision 0062): the same dialog as a failed row's,
// run in place by the server, so the current transcript stays in the History of the same row.
import { useState } from 'react';
import type { TranscriptionSummary } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { RerunDialog } from '../library/rerun-dialog';
import type { ToolProps } from './edit-toolbar';

/** `tool`: its place in the edit toolbar's roving tab stops. */
export function TranscribeAgainButton({ summary, tool }: { summary: TranscriptionSummary; tool?: ToolProps }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button-quiet"
        data-testid="transcribe-again"
        {...tool}
        onClick={() => setOpen(true)}
      >
        {t('transcript.transcribeAgain')}
      </button>
      {open && <RerunDialog item={summary} onClose={() => setOpen(false)} />}
    </>
  );
}
