// Servers (profiles), defaults for new uploads, and the interface.
import { useEffect, useId, useState } from 'react';
import {
  TRANSCRIPTION_MODELS,
  type IpcError,
  type TranscriptionModel,
  type UiLanguage,
} from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import type { ShownError } from '../../i18n/error-text';
import { useT } from '../../i18n/use-t';
import { PLAYBACK_RATES } from '../../stores/player-store';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';
import { useLanguagesStore } from '../../stores/languages-store';
import { choiceOfCodes, codesOfChoice, type LanguageChoice } from '../../../src-shared/languages';
import { LanguagePicker, languageHint } from '../languages/language-picker';
import { errorFor, formLevelError } from '../../lib/field-error';
import { FieldMessage } from '../../lib/field-message';
import { SpeechSection } from './speech-section';
import { VoicesSection } from '../voices/voices-section';
import { SpeakerCountInput } from '../library/speaker-count-field';
import { useUploadsStore } from '../../stores/uploads-store';
import { checkSpeakerCounts, type SpeakerCountField } from '../../../src-shared/speaker-count';

export function SettingsView() {
  const t = useT();
  useEffect(() => {
    void useSettingsStore.getState().load();
  }, []);
  return (
    <div className="settings">
      <h1 className="view-title">{t('settings.heading')}</h1>
      <ProfilesSection />
      <SpeechSection />
      <VoicesSection />
      <DefaultsSection />
      <InterfaceSection />
    </div>
  );
}

function ProfilesSection() {
  const t = useT();
  const profiles = useSettingsStore((state) => state.profiles);
  const activeId = useSettingsStore((state) => state.settings?.activeProfileId);
  const { activateProfile, removeProfile } = useSettingsStore.getState();
  const [error, setError] = useState<ShownError | null>(null);
  // Switching to a server Kikitori has not sent to yet waits for the user's answer in main's own dialog.
  const [switching, setSwitching] = useState<string | null>(null);
  const activate = async (profile: { id: string; name: string }) => {
    setError(null);
    setSwitching(profile.id);
    const failure = await activateProfile(profile.id);
    setSwitching(null);
    setError(
      failure?.code === 'cancelled'
        ? { code: failure.code, text: t('settings.profile.notConfirmed', { name: profile.name }) }
        : failure,
    );
  };
  return (
    <section className="card" aria-labelledby="profiles-title">
      <h2 className="section-title" id="profiles-title">
        {t('settings.profiles')}
      </h2>
      <ul className="profile-list">
        {profiles.map((profile) => {
          const active = profile.id === activeId;
          // The built-in server's name is the app's words, in the interface's language; others are the user's.
          const name = profile.kind === 'embedded' ? t('settings.profile.thisComputer') : profile.name;
          return (
            <li key={profile.id} className="profile" data-testid="profile" data-active={active}>
              <span className="profile-name">
                <strong>{name}</strong>
                <span className="muted">
                  {profile.kind === 'embedded' ? t('settings.profile.embedded') : profile.baseUrl}
                </span>
              </span>
              {active ? (
                <span className="badge badge-ok">{t('settings.profile.active')}</span>
              ) : (
                <button
                  type="button"
                  className="button"
                  disabled={switching !== null}
                  onClick={() => void activate({ id: profile.id, name })}
                >
                  {t('settings.profile.activate', { name })}
                </button>
              )}
              {profile.kind === 'remote' && !active && (
                <button
                  type="button"
                  className="button-quiet danger"
                  onClick={() => void removeProfile(profile.id).then(setError)}
                  aria-label={t('settings.profile.remove', { name })}
                >
                  {t('common.remove')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {switching && (
        <p className="hint" role="status" data-testid="profile-confirming">
          {t('settings.profile.confirming')}
        </p>
      )}
      <FieldMessage error={error} />
      <AddProfileForm />
    </section>
  );
}

function AddProfileForm() {
  const t = useT();
  const id = useId();
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const addProfile = useSettingsStore((state) => state.addProfile);
  const fields = ['name', 'baseUrl', 'apiKey'];
  const submit = async () => {
    setBusy(true);
    const failure = await addProfile({ name: name.trim(), baseUrl: baseUrl.trim(), apiKey: apiKey.trim() });
    setBusy(false);
    setError(failure);
    if (!failure) {
      setName('');
      setBaseUrl('');
      setApiKey('');
    }
  };
  return (
    <form
      className="form-grid"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 className="section-title full" id={`${id}-title`}>
        {t('settings.profile.add')}
      </h3>
      <label htmlFor={`${id}-name`}>{t('settings.profile.name')}</label>
      <input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} required />
      <span>
        <FieldMessage error={errorFor(error, ['name'])} />
      </span>
      <label htmlFor={`${id}-url`}>{t('settings.profile.baseUrl')}</label>
      <input
        id={`${id}-url`}
        type="url"
        placeholder="https://kikitori.example.com"
        value={baseUrl}
        onChange={(event) => setBaseUrl(event.target.value)}
        required
      />
      <span>
        <FieldMessage error={errorFor(error, ['baseUrl'])} />
      </span>
      <label htmlFor={`${id}-key`}>{t('settings.profile.apiKey')}</label>
      <input
        id={`${id}-key`}
        type="password"
        autoComplete="off"
        value={apiKey}
        onChange={(event) => setApiKey(event.target.value)}
        aria-describedby={`${id}-key-hint`}
        required
      />
      <span>
        <small className="hint" id={`${id}-key-hint`}>
          {t('settings.profile.apiKeyHint')}
        </small>
        <FieldMessage error={errorFor(error, ['apiKey'])} />
      </span>
      <small className="hint full" data-testid="profile-add-hint">
        {t('settings.profile.addHint')}
      </small>
      <span />
      <span>
        <button type="submit" className="button primary" disabled={busy}>
          {t('common.add')}
        </button>
      </span>
      <span>
        <FieldMessage error={formLevelError(error, fields)} />
      </span>
    </form>
  );
}

function DefaultsSection() {
  const t = useT();
  const id = useId();
  const settings = useSettingsStore((state) => state.settings);
  // The same options as the upload form's: editing them here is editing the remembered ones.
  const defaults = useUploadsStore((state) => state.options);
  const setOptions = useUploadsStore((state) => state.setOptions);
  if (!settings) return null;
  const problem = checkSpeakerCounts(defaults);
  const speakersError = (field: SpeakerCountField): ShownError | null =>
    problem?.field === field
      ? {
          code: 'validation',
          field,
          text: t(`library.options.speakerCount.${problem.reason}`, {
            min: LIMITS.speakers.min,
            max: LIMITS.speakers.max,
          }),
        }
      : null;
  return (
    <section className="card form-grid" aria-labelledby={`${id}-title`}>
      <h2 className="section-title full" id={`${id}-title`}>
        {t('settings.defaults')}
      </h2>
      <label htmlFor={`${id}-language`}>{t('settings.defaults.language')}</label>
      <LanguageField
        id={`${id}-language`}
        value={defaults.language}
        model={defaults.model}
        onCommit={(language) => {
          setOptions({ language });
          return Promise.resolve(null);
        }}
      />
      <label htmlFor={`${id}-model`}>{t('settings.defaults.model')}</label>
      <select
        id={`${id}-model`}
        value={defaults.model}
        onChange={(event) => setOptions({ model: event.target.value as TranscriptionModel })}
      >
        {TRANSCRIPTION_MODELS.map((model) => (
          <option key={model} value={model}>
            {t(`library.options.model.${model}`)}
          </option>
        ))}
      </select>
      <span />
      <label htmlFor={`${id}-speakers`}>{t('settings.defaults.speakers')}</label>
      <SpeakerCountInput
        id={`${id}-speakers`}
        testIdPrefix="default-"
        className="speaker-count-wide"
        counts={defaults}
        onChange={setOptions}
        errorOf={speakersError}
      />
    </section>
  );
}

/** The default languages, picked by name; saved on every change (a chosen language is always a whole code). */
function LanguageField({
  id,
  value,
  model,
  onCommit,
}: {
  id: string;
  value: LanguageChoice;
  model: TranscriptionModel;
  onCommit: (language: LanguageChoice) => Promise<IpcError | null>;
}) {
  const t = useT();
  const locale = useSettingsStore(selectUiLanguage);
  const activeProfileId = useSettingsStore((state) => state.settings?.activeProfileId);
  const serving = useLanguagesStore((state) => state.serving);
  const [error, setError] = useState<IpcError | null>(null);
  useEffect(() => {
    void useLanguagesStore.getState().load();
  }, [activeProfileId]);
  const engine = serving === undefined || serving === null ? serving : serving[model];
  return (
    <>
      <LanguagePicker
        id={id}
        testId="default-language-input"
        value={codesOfChoice(value)}
        serving={engine}
        describedBy={`${id}-hint`}
        invalid={Boolean(error)}
        onChange={(codes) => void onCommit(choiceOfCodes(codes)).then(setError)}
      />
      <span>
        <small className="hint" id={`${id}-hint`}>
          {languageHint(t, engine, locale, 'settings')}
        </small>
        <FieldMessage error={error} />
      </span>
    </>
  );
}

function InterfaceSection() {
  const t = useT();
  const id = useId();
  const settings = useSettingsStore((state) => state.settings);
  const update = useSettingsStore((state) => state.update);
  if (!settings) return null;
  return (
    <section className="card form-grid" aria-labelledby={`${id}-title`}>
      <h2 className="section-title full" id={`${id}-title`}>
        {t('settings.ui')}
      </h2>
      <label htmlFor={`${id}-lang`}>{t('settings.uiLanguage')}</label>
      <select
        id={`${id}-lang`}
        value={settings.uiLanguage}
        onChange={(event) => void update({ uiLanguage: event.target.value as UiLanguage })}
        data-testid="ui-language"
      >
        <option value="en" lang="en">
          English
        </option>
        <option value="ja" lang="ja">
          日本語
        </option>
      </select>
      <span />
      <label htmlFor={`${id}-rate`}>{t('settings.playbackRate')}</label>
      <select
        id={`${id}-rate`}
        value={settings.playbackRate}
        onChange={(event) => void update({ playbackRate: Number(event.target.value) })}
      >
        {PLAYBACK_RATES.map((rate) => (
          <option key={rate} value={rate}>
            {rate}×
          </option>
        ))}
      </select>
      <span />
      <label className="check full">
        <input
          type="checkbox"
          checked={settings.notifications}
          onChange={(event) => void update({ notifications: event.target.checked })}
        />{' '}
        {t('settings.notifications')}
      </label>
    </section>
  );
}
