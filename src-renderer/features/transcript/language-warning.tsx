// A finished transcription whose audio is most likely not in its language (decision 0070): said on its
// library row and in its view, in the UI's language, with "Transcribe again as <language>…" opening the
// Transcribe again dialog (decision 0062) with that language chosen.
import { useState } from 'react';
import type { TranscriptionSummary, TranscriptWarning } from '../../../src-shared/ipc-contract';
import { languageName } from '../../../src-shared/languages';
import type { T } from '../../i18n/use-t';
import { useT } from '../../i18n/use-t';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';
import { RerunDialog } from '../library/rerun-dialog';

export function languageWarningOf(summary: TranscriptionSummary): TranscriptWarning | null {
  return summary.status === 'COMPLETED' ? (summary.warnings.find((w) => w.code === 'LANGUAGE_MISMATCH') ?? null) : null;
}

function names(summary: TranscriptionSummary, warning: TranscriptWarning, locale: string) {
  const asked = summary.languages[0];
  return {
    language: asked ? languageName(asked, locale) : '',
    likely: warning.likelyLanguage ? languageName(warning.likelyLanguage, locale) : '',
  };
}

/** The whole sentence (the view, and the row's tooltip). */
export function languageWarningText(t: T, summary: TranscriptionSummary, warning: TranscriptWarning, locale: string) {
  const n = names(summary, warning, locale);
  return t(warning.likelyLanguage ? 'warning.languageMismatch.likely' : 'warning.languageMismatch.unknown', n);
}

/** The button that opens the Transcribe again dialog with the likely language chosen. */
function TranscribeAgainAs({
  summary,
  warning,
  className,
  testId,
}: {
  summary: TranscriptionSummary;
  warning: TranscriptWarning;
  className: string;
  testId: string;
}) {
  const t = useT();
  const locale = useSettingsStore(selectUiLanguage);
  const [open, setOpen] = useState(false);
  const { likely } = names(summary, warning, locale);
  return (
    <>
      <button type="button" className={className} data-testid={testId} onClick={() => setOpen(true)}>
        {likely ? t('warning.transcribeAgainAs', { likely }) : t('warning.transcribeAgainOther')}
      </button>
      {open && (
        <RerunDialog
          item={summary}
          presetLanguage={warning.likelyLanguage}
          askLanguage={!warning.likelyLanguage}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/** The transcript view's banner. */
export function LanguageWarningBanner({ summary }: { summary: TranscriptionSummary }) {
  const t = useT();
  const locale = useSettingsStore(selectUiLanguage);
  const warning = languageWarningOf(summary);
  if (!warning) return null;
  return (
    <div className="warning-banner" role="status" data-testid="language-warning">
      <span className="warning-icon" aria-hidden="true">
        !
      </span>
      <p>{languageWarningText(t, summary, warning, locale)}</p>
      <TranscribeAgainAs summary={summary} warning={warning} className="button" testId="language-warning-again" />
    </div>
  );
}

/** The library row's warning cell: a short line (the sentence in its tooltip) and the button. */
export function LanguageWarningCell({
  summary,
  warning,
}: {
  summary: TranscriptionSummary;
  warning: TranscriptWarning;
}) {
  const t = useT();
  const locale = useSettingsStore(selectUiLanguage);
  const n = names(summary, warning, locale);
  return (
    <div className="failure-cell">
      <span
        className="failure-reason warning-note"
        data-testid="row-language-warning"
        title={languageWarningText(t, summary, warning, locale)}
      >
        {t(warning.likelyLanguage ? 'warning.languageMismatch.rowLikely' : 'warning.languageMismatch.row', n)}
      </span>
      <span className="failure-actions">
        <TranscribeAgainAs
          summary={summary}
          warning={warning}
          className="button-quiet small"
          testId="row-language-warning-again"
        />
      </span>
    </div>
  );
}
