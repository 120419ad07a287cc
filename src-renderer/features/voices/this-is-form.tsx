// "This is…" on a speaker (decision 0075): the user names the person, picking a voice of the team or typing
// a new name; the speaker's turns in this transcript are learned as that voice, and the speaker is named.
// A voice learned from little speech stays open on a note saying so, until the user closes it.
import { useEffect, useId, useState } from 'react';
import type { VoiceSummary } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import type { ShownError } from '../../i18n/error-text';
import { useT } from '../../i18n/use-t';
import { FieldMessage } from '../../lib/field-message';
import { useTranscriptStore } from '../../stores/transcript-store';
import { useVoicesStore } from '../../stores/voices-store';
import { hasLittleSpeech, LittleSpeechNote } from './little-speech-note';

export function ThisIsForm({ speaker, name, onDone }: { speaker: string; name: string; onDone?: () => void }) {
  const t = useT();
  const id = useId();
  const voices = useVoicesStore((state) => state.list);
  const offline = useVoicesStore((state) => state.offline);
  const identify = useTranscriptStore((state) => state.identifySpeaker);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [learned, setLearned] = useState<VoiceSummary | null>(null);
  useEffect(() => {
    void useVoicesStore.getState().load();
  }, []);
  const submit = async () => {
    const typed = value.trim();
    if (!typed) return;
    const known = voices.find((v) => v.name.toLocaleLowerCase() === typed.toLocaleLowerCase());
    setBusy(true);
    setError(null);
    const answer = await identify(speaker, known ? { id: known.id } : { name: typed });
    setBusy(false);
    if (answer.error) setError(answer.error);
    else if (answer.voice && hasLittleSpeech(answer.voice)) setLearned(answer.voice);
    else onDone?.();
  };
  if (learned) {
    return (
      <div className="this-is-form" data-testid="this-is-form">
        <p role="status">
          <LittleSpeechNote voice={learned} />
        </p>
        <button type="button" className="button" autoFocus onClick={() => onDone?.()}>
          {t('common.close')}
        </button>
      </div>
    );
  }
  return (
    <form
      className="this-is-form"
      data-testid="this-is-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label className="field">
        <span>{t('voices.thisIs')}</span>
        <input
          list={`${id}-voices`}
          value={value}
          maxLength={LIMITS.speakerName}
          placeholder={t('voices.thisIsPlaceholder')}
          aria-label={t('voices.thisIsLabel', { name })}
          disabled={busy || offline}
          onChange={(event) => setValue(event.target.value)}
        />
        <datalist id={`${id}-voices`}>
          {voices.map((v) => (
            <option key={v.id} value={v.name} />
          ))}
        </datalist>
      </label>
      <button type="submit" className="button" disabled={busy || offline || !value.trim()}>
        {busy ? t('voices.learning') : t('voices.learn')}
      </button>
      <p className="hint">{offline ? t('voices.offlineNote') : t('voices.thisIsHint')}</p>
      <FieldMessage error={error} />
    </form>
  );
}
