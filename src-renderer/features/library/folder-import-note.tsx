// What the last folder import did, in one sentence ("12 files added from “Interviews”, 3 skipped: not
// audio or video"), with what the files that are not media looked like underneath on request (counts:
// main never tells the page their names, decision 0046). Stays until dismissed.
import type { FolderImport, FolderSkipReason } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import { useT, type T } from '../../i18n/use-t';
import { useUploadsStore } from '../../stores/uploads-store';

const REASONS: readonly FolderSkipReason[] = ['not-media', 'empty', 'unreadable', 'too-many'];

const reasonText = (t: T, reason: FolderSkipReason) =>
  t(`library.folder.reason.${reason}`, { max: LIMITS.uploadsPerRequest });

/** The import's outcome as one sentence, in the UI's language. */
export function folderImportSummary(t: T, result: FolderImport): string {
  const added = result.jobs.length;
  const head =
    added === 0
      ? t('library.folder.none', { folder: result.folder })
      : t(added === 1 ? 'library.folder.added.one' : 'library.folder.added.other', {
          count: added,
          folder: result.folder,
        });
  const groups = REASONS.map((reason) => [reason, result.skipped[reason] ?? 0] as const).filter(
    ([, count]) => count > 0,
  );
  const total = groups.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return head;
  const reasons =
    groups.length === 1
      ? reasonText(t, groups[0]![0])
      : groups
          .map(([reason, count]) => t('library.folder.reasonCount', { count, reason: reasonText(t, reason) }))
          .join(t('library.folder.separator'));
  return t('library.folder.summary', { added: head, skipped: t('library.folder.skipped', { count: total, reasons }) });
}

export function FolderImportNote() {
  const t = useT();
  const result = useUploadsStore((state) => state.folderImport);
  const dismiss = useUploadsStore((state) => state.dismissFolderImport);
  if (!result) return null;
  const kinds = Object.entries(result.notMedia).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div
      className={result.jobs.length === 0 ? 'folder-note folder-note-empty' : 'folder-note'}
      role="status"
      data-testid="folder-import-note"
    >
      <div className="folder-note-head">
        <span data-testid="folder-import-summary">{folderImportSummary(t, result)}</span>
        <span className="spacer" />
        <button type="button" className="button-quiet" onClick={dismiss}>
          {t('common.dismiss')}
        </button>
      </div>
      {result.foldersTooDeep > 0 && (
        <p className="hint">
          {t('library.folder.tooDeep', { depth: LIMITS.folderDepth, count: result.foldersTooDeep })}
        </p>
      )}
      {kinds.length > 0 && (
        <details className="folder-note-skipped">
          <summary>{t('library.folder.details')}</summary>
          <ul>
            {kinds.map(([kind, count]) => (
              <li key={kind}>{t('library.folder.kindCount', { kind: kind.toUpperCase(), count })}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
