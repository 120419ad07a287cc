// Settings → Voices (decision 0075): the team's voice library by name, renamed and deleted here. Offline,
// the list last seen is shown read-only with a note.
import { useEffect, useId, useState } from 'react';
import type { VoiceSummary } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import type { ShownError } from '../../i18n/error-text';
import { FieldMessage } from '../../lib/field-message';
import { formatDate } from '../../lib/format';
import { useLocale, useT } from '../../i18n/use-t';
import { useVoicesStore } from '../../stores/voices-store';

export function VoicesSection() {
  const t = useT();
  const id = useId();
  const list = useVoicesStore((state) => state.list);
  const offline = useVoicesStore((state) => state.offline);
  const loadError = useVoicesStore((state) => state.error);
  const [error, setError] = useState<ShownError | null>(null);
  useEffect(() => {
    void useVoicesStore.getState().load();
  }, []);
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="voices-section">
      <h2 className="section-title" id={`${id}-title`}>
        {t('voices.heading')}
      </h2>
      <p className="hint">{t('voices.intro')}</p>
      {offline && (
        <p className="hint" role="status" data-testid="voices-offline">
          {t('voices.offlineNote')}
        </p>
      )}
      {list.length === 0 ? (
        <p className="muted">{t('voices.empty')}</p>
      ) : (
        <ul className="profile-list">
          {list.map((voice) => (
            <VoiceRow key={voice.id} voice={voice} readOnly={offline} onError={setError} />
          ))}
        </ul>
      )}
      <FieldMessage error={error ?? loadError} />
    </section>
  );
}

function VoiceRow({
  voice,
  readOnly,
  onError,
}: {
  voice: VoiceSummary;
  readOnly: boolean;
  onError: (error: ShownError | null) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const { rename, remove } = useVoicesStore.getState();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(voice.name);
  return (
    <li className="profile" data-testid="voice">
      {editing ? (
        <form
          className="speaker-form"
          onSubmit={(event) => {
            event.preventDefault();
            const next = value.trim();
            setEditing(false);
            if (next && next !== voice.name) void rename(voice.id, next).then(onError);
          }}
        >
          <input
            autoFocus
            value={value}
            maxLength={LIMITS.speakerName}
            aria-label={t('voices.nameOf', { name: voice.name })}
            onChange={(event) => setValue(event.target.value)}
            onKeyDown={(event) => event.key === 'Escape' && setEditing(false)}
          />
          <button type="submit" className="button-quiet">
            {t('common.save')}
          </button>
        </form>
      ) : (
        <span className="profile-name">
          <strong>{voice.name}</strong>
          <span className="muted">
            {t('voices.details', {
              samples: voice.sampleCount,
              seconds: Math.round(voice.speechSeconds),
              created: formatDate(voice.createdAt, locale),
            })}
          </span>
        </span>
      )}
      {!readOnly && !editing && (
        <>
          <button
            type="button"
            className="button"
            aria-label={t('voices.rename', { name: voice.name })}
            onClick={() => {
              setValue(voice.name);
              setEditing(true);
            }}
          >
            {t('voices.renameShort')}
          </button>
          <button
            type="button"
            className="button-quiet danger"
            aria-label={t('voices.delete', { name: voice.name })}
            onClick={() => {
              if (window.confirm(t('voices.deleteConfirm', { name: voice.name }))) void remove(voice.id).then(onError);
            }}
          >
            {t('common.remove')}
          </button>
        </>
      )}
    </li>
  );
}
