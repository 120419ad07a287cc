// The "Details" disclosure under a failure: the server's own words (English, untranslated) and the
// error id to quote, kept out of the message the user reads first (decision 0068).
import { errorDetail, useErrorText, type ShownError } from '../i18n/error-text';
import { useT } from '../i18n/use-t';

export function ErrorDetails({ detail, errorId }: { detail?: string | null; errorId?: string | null }) {
  const t = useT();
  if (!detail && !errorId) return null;
  return (
    <details className="error-details" data-testid="error-details">
      <summary>{t('error.details')}</summary>
      {detail && (
        <span className="error-detail-text" lang="en">
          {detail}
        </span>
      )}
      {errorId && <span className="error-detail-id">{t('error.errorId', { id: errorId })}</span>}
    </details>
  );
}

/** An IpcError in the UI's language, with its details (the server's words, the error id) under it. */
export function ErrorText({ error }: { error: ShownError }) {
  const text = useErrorText();
  return (
    <>
      <span className="error-text">{text(error)}</span>
      <ErrorDetails
        detail={errorDetail(error).join('\n') || null}
        errorId={'errorId' in error ? (error.errorId ?? null) : null}
      />
    </>
  );
}
