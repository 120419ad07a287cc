// Options for the next upload: language, model, speakers, a dictionary, ad-hoc words. A refused
// option shows next to its input: the speaker counts are checked here with the same rule main and
// the server apply, and main's refusals are placed by their field.
import { useEffect, useId, useState } from 'react';
import { TRANSCRIPTION_MODELS, type TranscriptionModel } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import { checkSpeakerCounts, type SpeakerCountField, type SpeakerCounts } from '../../../src-shared/speaker-count';
import type { ShownError } from '../../i18n/error-text';
import { useT, type T } from '../../i18n/use-t';
import { errorFor } from '../../lib/field-error';
import { FieldMessage } from '../../lib/field-message';
import { useDictionariesStore } from '../../stores/dictionaries-store';
import { useLanguagesStore } from '../../stores/languages-store';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';
import { choiceOfCodes, codesOfChoice } from '../../../src-shared/languages';
import { LanguagePicker, languageHint } from '../languages/language-picker';
import { useUploadsStore } from '../../stores/uploads-store';
import { DictionaryOptions } from '../dictionaries/dictionary-options';
import { SpeakerCountInput } from './speaker-count-field';

const WORD_FIELDS = ['options.words', 'options.words.*', 'options.words.*.word', 'options.words.*.reading'];

/** The request paths this form places next to its inputs; other upload errors show for the whole drop zone. */
export const UPLOAD_OPTION_FIELDS = [
  ...['language', 'model', 'numSpeakers', 'minSpeakers', 'maxSpeakers', 'dictionaryId'].map((key) => `options.${key}`),
  ...WORD_FIELDS,
];

export function parseWordLines(text: string): Array<{ word: string; reading?: string }> {
  return text
    .split(/\r?\n/)
    .map((line) => line.split(',').map((part) => part.trim()))
    .filter(([word]) => word)
    .map(([word, reading]) => (reading ? { word: word!, reading } : { word: word! }));
}

/** The speaker-count problem of `field`, from this form's own check, worded for the UI. */
function speakerCountError(t: T, options: SpeakerCounts, field: SpeakerCountField): ShownError | null {
  const problem = checkSpeakerCounts(options);
  if (!problem || problem.field !== field) return null;
  const text = t(`library.options.speakerCount.${problem.reason}`, {
    min: LIMITS.speakers.min,
    max: LIMITS.speakers.max,
  });
  return { code: 'validation', field: `options.${field}`, text };
}

export function UploadOptionsForm() {
  const t = useT();
  const id = useId();
  const options = useUploadsStore((state) => state.options);
  const setOptions = useUploadsStore((state) => state.setOptions);
  const error = useUploadsStore((state) => state.error);
  const dictionaries = useDictionariesStore((state) => state.list);
  const [open, setOpen] = useState(false);
  const [wordsText, setWordsText] = useState('');
  const serving = useLanguagesStore((state) => state.serving);
  const locale = useSettingsStore(selectUiLanguage);
  const activeProfileId = useSettingsStore((state) => state.settings?.activeProfileId);
  const held = useUploadsStore((state) => state.held);

  const fieldError = (field: string, paths = [field]) => errorFor(error, paths);
  const speakersError = (field: SpeakerCountField) =>
    speakerCountError(t, options, field) ?? fieldError(`options.${field}`);
  const errors = {
    language: fieldError('options.language'),
    model: fieldError('options.model'),
    numSpeakers: speakersError('numSpeakers'),
    minSpeakers: speakersError('minSpeakers'),
    maxSpeakers: speakersError('maxSpeakers'),
    dictionaryId: fieldError('options.dictionaryId'),
    words: fieldError('options.words', WORD_FIELDS),
  };
  const hasError = Object.values(errors).some(Boolean);
  const invalid = (e: ShownError | null, key: string) =>
    e ? { 'aria-invalid': true, 'aria-describedby': `${id}-${key}-error` } : {};

  useEffect(() => {
    if (open) void useDictionariesStore.getState().load();
  }, [open]);
  // What the active server recognizes decides which languages the picker offers.
  useEffect(() => {
    if (open) void useLanguagesStore.getState().load();
  }, [open, activeProfileId]);
  // A refused option must be visible, even when the options were folded away.
  useEffect(() => {
    if (hasError) setOpen(true);
  }, [hasError]);
  // Files of two or more channels wait for the multichannel question, which sits in the options.
  useEffect(() => {
    if (held.length > 0) setOpen(true);
  }, [held.length]);

  return (
    <details
      className="upload-options"
      open={open}
      onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}
    >
      <summary>{t('library.options.toggle')}</summary>
      {held.length > 0 && <MultichannelOffer />}
      <div className="form-grid">
        <label htmlFor={`${id}-language`}>{t('library.options.language')}</label>
        <LanguagePicker
          id={`${id}-language`}
          value={codesOfChoice(options.language)}
          onChange={(codes) => setOptions({ language: choiceOfCodes(codes) })}
          serving={serving === undefined || serving === null ? serving : serving[options.model]}
          describedBy={errors.language ? `${id}-language-error` : `${id}-language-hint`}
          invalid={Boolean(errors.language)}
        />
        {errors.language ? (
          <FieldMessage id={`${id}-language-error`} error={errors.language} />
        ) : (
          <small id={`${id}-language-hint`} className="hint" data-testid="language-hint">
            {languageHint(t, serving?.[options.model], locale)}
          </small>
        )}

        <label htmlFor={`${id}-model`}>{t('library.options.model')}</label>
        <select
          id={`${id}-model`}
          value={options.model}
          {...(errors.model ? invalid(errors.model, 'model') : { 'aria-describedby': `${id}-model-hint` })}
          onChange={(event) => setOptions({ model: event.target.value as TranscriptionModel })}
        >
          {TRANSCRIPTION_MODELS.map((model) => (
            <option key={model} value={model}>
              {t(`library.options.model.${model}`)}
            </option>
          ))}
        </select>
        {errors.model ? (
          <FieldMessage id={`${id}-model-error`} error={errors.model} />
        ) : (
          <small id={`${id}-model-hint`} className="hint" data-testid="model-hint">
            {t('library.options.model.hint')}
          </small>
        )}

        <label htmlFor={`${id}-speakers`}>{t('library.options.speakers')}</label>
        <SpeakerCountInput
          id={`${id}-speakers`}
          counts={options}
          onChange={setOptions}
          errorOf={(field) => errors[field]}
        />

        <label htmlFor={`${id}-dictionary`}>{t('library.options.dictionary')}</label>
        <select
          id={`${id}-dictionary`}
          value={options.dictionaryId ?? ''}
          {...(errors.dictionaryId
            ? invalid(errors.dictionaryId, 'dictionaryId')
            : { 'aria-describedby': `${id}-dictionary-hint` })}
          onChange={(event) => setOptions({ dictionaryId: event.target.value || null })}
        >
          <option value="">{t('common.none')}</option>
          <DictionaryOptions dictionaries={dictionaries} />
        </select>
        {errors.dictionaryId ? (
          <FieldMessage id={`${id}-dictionaryId-error`} error={errors.dictionaryId} />
        ) : (
          <small id={`${id}-dictionary-hint`} className="hint" data-testid="dictionary-hint">
            {t('library.options.dictionary.hint')}
          </small>
        )}

        <label htmlFor={`${id}-words`}>{t('library.options.words')}</label>
        <textarea
          id={`${id}-words`}
          rows={3}
          value={wordsText}
          {...invalid(errors.words, 'words')}
          onChange={(event) => {
            setWordsText(event.target.value);
            setOptions({ words: parseWordLines(event.target.value) });
          }}
        />
        <FieldMessage id={`${id}-words-error`} error={errors.words} />
      </div>
    </details>
  );
}

/**
 * Files of two or more channels, held until the user says whether each channel is a speaker (decision 0061):
 * then uploaded with the options above, or dropped.
 */
function MultichannelOffer() {
  const t = useT();
  const id = useId();
  const held = useUploadsStore((state) => state.held);
  const multichannel = useUploadsStore((state) => state.multichannel);
  const setMultichannel = useUploadsStore((state) => state.setMultichannel);
  const uploadHeld = useUploadsStore((state) => state.uploadHeld);
  const dropHeld = useUploadsStore((state) => state.dropHeld);
  return (
    <div className="multichannel-offer" data-testid="multichannel-offer" role="group" aria-labelledby={`${id}-held`}>
      <p id={`${id}-held`}>
        {t('library.options.multichannel.held', { names: held.map((offer) => `“${offer.name}”`).join(', ') })}
      </p>
      <label className="check">
        <input
          type="checkbox"
          data-testid="multichannel-input"
          checked={multichannel}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setMultichannel(event.target.checked)}
        />{' '}
        {t('library.options.multichannel')}
      </label>
      <small id={`${id}-hint`} className="hint">
        {t('library.options.multichannel.hint')}
      </small>
      <div className="actions">
        <button
          type="button"
          className="button primary"
          data-testid="multichannel-upload"
          onClick={() => void uploadHeld()}
        >
          {t('library.options.multichannel.upload')}
        </button>
        <button type="button" className="button" onClick={dropHeld}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
