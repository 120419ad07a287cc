import { useEffect, useId, useMemo, useState } from 'react';
import { languageName } from '../../../src-shared/languages';
import { useT } from '../../i18n/use-t';
import { analysisKey, selectSlot, selectTargets, useAnalysisStore } from '../../stores/analysis-store';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';
import { selectSegments, useTranscriptStore } from '../../stores/transcript-store';
import { AnalysisHead, MomentButton } from './analysis-status';
import { ErrorText } from '../../lib/error-details';
import { targetGroups, TranslationTargetPicker } from './translation-target-picker';

export function TranslationPanel({ id }: { id: string }) {
  const t = useT();
  const fieldId = useId();
  const slot = useAnalysisStore(selectSlot(analysisKey(id, 'translation')));
  const segments = useTranscriptStore(selectSegments);
  const { targets, error: targetsError } = useAnalysisStore(selectTargets(id));
  const locale = useSettingsStore(selectUiLanguage);
  const { load, request, loadTargets } = useAnalysisStore.getState();
  const [language, setLanguage] = useState('');
  useEffect(() => {
    void load(id, 'translation');
    void loadTargets(id);
  }, [id, load, loadTargets]);
  useEffect(() => {
    if (!language && slot.view?.language) setLanguage(slot.view.language);
  }, [slot.view?.language, language]);

  const translation = slot.view?.status === 'COMPLETED' ? slot.view.translation : null;
  const bySegment = useMemo(
    () => new Map((translation?.segments ?? []).map((segment) => [segment.segment_id, segment.text])),
    [translation],
  );
  const languageError = slot.error?.field === 'language' ? slot.error : null;
  const noLlm = targets !== undefined && targetGroups(targets).llm.length === 0;

  return (
    <div className="translation-panel">
      <div className="inline-fields">
        <label htmlFor={`${fieldId}-language`}>{t('analysis.translation.language')}</label>
        <TranslationTargetPicker
          id={`${fieldId}-language`}
          value={language}
          targets={targets}
          failed={targetsError !== null}
          invalid={Boolean(languageError)}
          describedBy={`${fieldId}-language-hint${languageError ? ` ${fieldId}-language-error` : ''}`}
          onChange={setLanguage}
        />
      </div>
      <small className="hint" id={`${fieldId}-language-hint`} data-testid="translation-target-hint">
        {targetsError ? (
          <ErrorText error={targetsError} />
        ) : targets === undefined ? null : noLlm ? (
          t('analysis.translation.llmMissing')
        ) : (
          t('analysis.translation.llmHint')
        )}
      </small>
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
              <th scope="col">
                {t('analysis.translation.translated', {
                  language: languageName(translation.language, locale),
                })}
              </th>
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
