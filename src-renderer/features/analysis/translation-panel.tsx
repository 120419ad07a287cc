import { useEffect, useId, useMemo, useState } from 'react';
import { useT } from '../../i18n/use-t';
import { analysisKey, selectSlot, useAnalysisStore } from '../../stores/analysis-store';
import { selectSegments, useTranscriptStore } from '../../stores/transcript-store';
import { AnalysisHead, MomentButton } from './analysis-status';
import { ErrorText } from '../../lib/error-details';

export function TranslationPanel({ id }: { id: string }) {
  const t = useT();
  const fieldId = useId();
  const slot = useAnalysisStore(selectSlot(analysisKey(id, 'translation')));
  const segments = useTranscriptStore(selectSegments);
  const { load, request } = useAnalysisStore.getState();
  const [language, setLanguage] = useState('');
  useEffect(() => {
    void load(id, 'translation');
  }, [id, load]);
  useEffect(() => {
    if (!language && slot.view?.language) setLanguage(slot.view.language);
  }, [slot.view?.language, language]);

  const translation = slot.view?.status === 'COMPLETED' ? slot.view.translation : null;
  const bySegment = useMemo(
    () => new Map((translation?.segments ?? []).map((segment) => [segment.segment_id, segment.text])),
    [translation],
  );
  const languageError = slot.error?.field === 'language' ? slot.error : null;

  return (
    <div className="translation-panel">
      <div className="inline-fields">
        <label htmlFor={`${fieldId}-language`}>{t('analysis.translation.language')}</label>
        <input
          id={`${fieldId}-language`}
          size={6}
          value={language}
          placeholder="ja"
          aria-invalid={languageError ? true : undefined}
          aria-describedby={languageError ? `${fieldId}-language-error` : undefined}
          onChange={(event) => setLanguage(event.target.value.trim())}
        />
      </div>
      {languageError && (
        <div className="field-error" id={`${fieldId}-language-error`}>
          <ErrorText error={languageError} />
        </div>
      )}
      <AnalysisHead
        kind="translation"
        slot={languageError ? { ...slot, error: null } : slot}
        disabled={!language}
        onRequest={() => void request(id, 'translation', language)}
      />
      {translation && (
        <table className="side-by-side" data-testid="translation-result">
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">{t('analysis.translation.original')}</th>
              <th scope="col">{t('analysis.translation.translated', { language: translation.language })}</th>
            </tr>
          </thead>
          <tbody>
            {segments.map((segment) => (
              <tr key={segment.id}>
                <td>
                  <MomentButton start={segment.start} />
                </td>
                <td>{segment.text}</td>
                <td lang={translation.language}>{bySegment.get(segment.id) ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
