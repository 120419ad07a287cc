// "Transcribe again with other options…" (decision 0020): the upload options of a transcription,
// prefilled from the ones it was made with, sent as a re-run of its cached audio (or of a file chosen
// again when the audio is not on this computer). Refusals show next to their field. Also offered on a
// finished transcription, from its view.
import { useEffect, useId, useState } from 'react';
import {
  TRANSCRIPTION_MODELS,
  type IpcError,
  type RerunPlan,
  type TranscriptionModel,
  type TranscriptionSummary,
  type UploadOptions,
} from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import { checkSpeakerCounts, type SpeakerCountField } from '../../../src-shared/speaker-count';
import { choiceOfCodes, codesOfChoice, languageName } from '../../../src-shared/languages';
import type { ShownError } from '../../i18n/error-text';
import { useT } from '../../i18n/use-t';
import { errorFor, formLevelError } from '../../lib/field-error';
import { FieldMessage } from '../../lib/field-message';
import { Modal } from '../../lib/modal';
import { useDictionariesStore } from '../../stores/dictionaries-store';
import { useLanguagesStore } from '../../stores/languages-store';
import { selectRerun, useLibraryStore } from '../../stores/library-store';
import { useNavigationStore } from '../../stores/navigation-store';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';
import { LanguagePicker, languageHint } from '../languages/language-picker';
import { UPLOAD_OPTION_FIELDS } from './upload-options-form';
import { DictionaryOptions } from '../dictionaries/dictionary-options';
import { SpeakerCountInput } from './speaker-count-field';

export function RerunDialog({
  item,
  onClose,
  presetLanguage = null,
  askLanguage = false,
}: {
  item: TranscriptionSummary;
  onClose: () => void;
  /** A language to start with instead of the one it was made with ("Transcribe again as…", decision 0070). */
  presetLanguage?: string | null;
  /**
   * Start with no language: the one it was made with is likely wrong and the right one is not known
   * ("Transcribe again in another language…"), so the user chooses.
   */
  askLanguage?: boolean;
}) {
  const t = useT();
  const id = useId();
  const locale = useSettingsStore(selectUiLanguage);
  const serving = useLanguagesStore((state) => state.serving);
  const dictionaries = useDictionariesStore((state) => state.list);
  const rerunState = useLibraryStore(selectRerun(item.id));
  const [plan, setPlan] = useState<RerunPlan | null>(null);
  const [options, setOptions] = useState<UploadOptions | null>(null);
  const [loadError, setLoadError] = useState<IpcError | null>(null);

  useEffect(() => {
    let live = true;
    void useLanguagesStore.getState().load();
    void useDictionariesStore.getState().load();
    void useLibraryStore
      .getState()
      .rerunPlan(item.id)
      .then(([value, error]) => {
        if (!live) return;
        setPlan(value);
        const language = presetLanguage ?? (askLanguage ? null : value?.options.language);
        setOptions(value ? { ...value.options, language: language ?? null } : null);
        setLoadError(error);
      });
    return () => {
      live = false;
    };
  }, [item.id, presetLanguage, askLanguage]);
  const refusal = rerunState?.state === 'refused' ? rerunState.error : null;
  const sending = rerunState?.state === 'sending';
  const change = (patch: Partial<UploadOptions>) => {
    setOptions((current) => (current ? { ...current, ...patch } : current));
    if (refusal?.field?.startsWith('options.')) useLibraryStore.getState().clearRerun(item.id);
  };
  const problem = options ? checkSpeakerCounts(options) : null;
  const engine = serving && options ? serving[options.model] : null;
  // Asked to choose, an empty choice means "the language it was made with" to the server unless the
  // engine detects: not a choice the user made.
  const languageMissing = askLanguage && options?.language === null && !engine?.detectsLanguage;
  const needsModel =
    options && engine ? codesOfChoice(options.language).filter((c) => !engine.languages.includes(c)) : [];
  const speakersError = (field: SpeakerCountField): ShownError | null =>
    problem?.field === field
      ? {
          code: 'validation',
          field: `options.${field}`,
          text: t(`library.options.speakerCount.${problem.reason}`, {
            min: LIMITS.speakers.min,
            max: LIMITS.speakers.max,
          }),
        }
      : errorFor(refusal, [`options.${field}`]);
  const general = formLevelError(refusal, UPLOAD_OPTION_FIELDS);
  // A transcription runs again in place on the server first, finished or failed (decision 0062): the file is
  // asked for only when main says the recording is needed (an older server, a server that lost it, or
  // ad-hoc words that only an upload carries).
  const chooseFile =
    plan !== null && !plan.audioCached && ((options?.words.length ?? 0) > 0 || refusal?.field === 'audio');

  async function submit() {
    if (!options || problem || languageMissing) return;
    if (await useLibraryStore.getState().rerun(item.id, options, chooseFile)) onClose();
  }

  return (
    <Modal
      className="rerun-dialog"
      title={t('library.rerun.dialogTitle', { name: item.name })}
      onClose={onClose}
      testId="rerun-dialog"
    >
      {loadError && <FieldMessage error={loadError} />}
      {!plan && !loadError && <p className="hint">{t('common.loading')}</p>}
      {plan && options && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <p className="hint">
            {t(
              item.status === 'COMPLETED'
                ? 'library.rerun.dialogIntroFinished'
                : chooseFile
                  ? 'library.rerun.dialogIntroChoose'
                  : 'library.rerun.dialogIntro',
            )}
          </p>
          {!plan.optionsKnown && <p className="hint">{t('library.rerun.optionsRebuilt')}</p>}
          <div className="form-grid">
            <label htmlFor={`${id}-language`}>{t('library.options.language')}</label>
            <LanguagePicker
              id={`${id}-language`}
              testId="rerun-language-input"
              value={codesOfChoice(options.language)}
              onChange={(codes) => change({ language: choiceOfCodes(codes) })}
              serving={serving === undefined || serving === null ? serving : serving[options.model]}
              describedBy={`${id}-language-note`}
              invalid={Boolean(errorFor(refusal, ['options.language']))}
            />
            {errorFor(refusal, ['options.language']) ? (
              <FieldMessage id={`${id}-language-note`} error={errorFor(refusal, ['options.language'])} />
            ) : (
              <small id={`${id}-language-note`} className="hint">
                {languageMissing ? t('library.rerun.chooseLanguage') : languageHint(t, engine, locale)}
              </small>
            )}
            {engine && (needsModel.length > 0 || (askLanguage && !engine.detectsLanguage)) && (
              <SpeechModelNote
                languages={needsModel.map((code) => languageName(code, locale))}
                onOpenSettings={onClose}
              />
            )}

            <label htmlFor={`${id}-model`}>{t('library.options.model')}</label>
            <select
              id={`${id}-model`}
              data-testid="rerun-model"
              value={options.model}
              onChange={(event) => change({ model: event.target.value as TranscriptionModel })}
            >
              {TRANSCRIPTION_MODELS.map((model) => (
                <option key={model} value={model}>
                  {t(`library.options.model.${model}`)}
                </option>
              ))}
            </select>
            <FieldMessage error={errorFor(refusal, ['options.model'])} />

            <label htmlFor={`${id}-speakers`}>{t('library.options.speakers')}</label>
            <SpeakerCountInput
              id={`${id}-speakers`}
              testIdPrefix="rerun-"
              counts={options}
              onChange={change}
              errorOf={speakersError}
            />

            <label htmlFor={`${id}-dictionary`}>{t('library.options.dictionary')}</label>
            <select
              id={`${id}-dictionary`}
              value={options.dictionaryId ?? ''}
              onChange={(event) => change({ dictionaryId: event.target.value || null })}
            >
              <option value="">{t('common.none')}</option>
              <DictionaryOptions dictionaries={dictionaries} current={options.dictionaryId} />
            </select>
            <FieldMessage error={errorFor(refusal, ['options.dictionaryId', 'options.words'])} />
          </div>
          {general && <FieldMessage error={general} />}
          <div className="row-actions">
            <button type="button" className="button" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button
              type="submit"
              className="button primary"
              data-testid="rerun-submit"
              disabled={sending || problem !== null || languageMissing || needsModel.length > 0}
            >
              {sending
                ? t('library.rerun.sending')
                : t(chooseFile ? 'library.rerun.submitChoose' : 'library.rerun.submit')}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/**
 * A language this server's recognizer does not know needs a speech model that is not installed: say so,
 * and lead to Settings → Speech models, where models are downloaded or installed from a file.
 */
function SpeechModelNote({ languages, onOpenSettings }: { languages: string[]; onOpenSettings: () => void }) {
  const t = useT();
  return (
    <p className="hint full rerun-model-note" data-testid="rerun-needs-model">
      {languages.length > 0
        ? t('library.rerun.needsModel', { languages: languages.join(t('library.rerun.languageSeparator')) })
        : t('library.rerun.otherLanguagesNeedModel')}{' '}
      <button
        type="button"
        className="button-quiet"
        onClick={() => {
          onOpenSettings();
          useNavigationStore.getState().go({ name: 'settings', section: 'speech' });
        }}
      >
        {t('library.rerun.openSpeechModels')}
      </button>
    </p>
  );
}
