// Settings → Voices (decision 0075): the team's voice library by name, renamed and deleted here. Offline,
// the list last seen is shown read-only with a note.
import { useEffect, useId, useState } from 'react';
import type { VoiceDetail, VoiceSummary } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import type { ShownError } from '../../i18n/error-text';
import { FieldMessage } from '../../lib/field-message';
import { formatClock, formatDate } from '../../lib/format';
import { useNavigationStore } from '../../stores/navigation-store';
import { useLocale, useT } from '../../i18n/use-t';
import { useVoicesStore } from '../../stores/voices-store';
import { LittleSpeechNote } from './little-speech-note';

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
  const [showSamples, setShowSamples] = useState(false);
  const samplesId = useId();
  return (
    <li className="profile voice" data-testid="voice">
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
          <LittleSpeechNote voice={voice} />
        </span>
      )}
      {!readOnly && !editing && (
        <>
          <button
            type="button"
            className="button-quiet"
            aria-expanded={showSamples}
            aria-controls={samplesId}
            aria-label={t('voices.samplesOf', { name: voice.name })}
            onClick={() => setShowSamples(!showSamples)}
          >
            {t('voices.samplesShow')}
          </button>
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
      {showSamples && !readOnly && <VoiceSamples id={samplesId} voice={voice} onError={onError} />}
    </li>
  );
}

/**
 * The parts of transcriptions a voice was learned from: each can be listened to (its transcript opened at
 * that moment, when it is in this library) and forgotten, for a part where someone else was speaking.
 */
function VoiceSamples({
  id,
  voice,
  onError,
}: {
  id: string;
  voice: VoiceSummary;
  onError: (error: ShownError | null) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const [detail, setDetail] = useState<VoiceDetail | null>(null);
  const { samples, removeSample } = useVoicesStore.getState();
  useEffect(() => {
    let current = true;
    void samples(voice.id).then(([answer, error]) => {
      if (!current) return;
      setDetail(answer);
      onError(error);
    });
    return () => {
      current = false;
    };
  }, [voice.id, samples, onError]);
  if (!detail)
    return (
      <p id={id} className="muted voice-samples" role="status">
        {t('voices.samplesLoading')}
      </p>
    );
  const total = detail.samples.reduce((sum, s) => sum + s.speechSeconds, 0);
  // The server keeps a voice only with enough speech for a print: a part it cannot spare says so.
  const spare = (seconds: number) => total - seconds >= LIMITS.voiceMinSpeechSeconds;
  const why = `${id}-why`;
  return (
    <div id={id} className="voice-samples">
      <ul aria-label={t('voices.samplesOf', { name: voice.name })}>
        {detail.samples.map((sample) => {
          const name = sample.transcriptionName ?? t('voices.sampleElsewhere');
          const range = { from: formatClock(sample.start), to: formatClock(sample.end) };
          const last = !spare(sample.speechSeconds);
          return (
            <li key={sample.id} className="voice-sample" data-testid="voice-sample">
              <span className="profile-name">
                <span>{t('voices.sampleOf', { name, ...range })}</span>
                <span className="muted">
                  {t('voices.sampleDetails', {
                    seconds: Math.round(sample.speechSeconds),
                    created: formatDate(sample.createdAt, locale),
                  })}
                </span>
              </span>
              {sample.transcriptionName !== null && (
                <button
                  type="button"
                  className="button-quiet"
                  aria-label={t('voices.sampleOpenLabel', { name, from: range.from })}
                  onClick={() =>
                    useNavigationStore
                      .getState()
                      .go({ name: 'transcript', id: sample.transcriptionId, at: sample.start, play: true })
                  }
                >
                  {t('voices.sampleOpen')}
                </button>
              )}
              <button
                type="button"
                className="button-quiet danger"
                disabled={last}
                aria-describedby={last ? why : undefined}
                aria-label={t('voices.sampleForgetLabel', { name: voice.name, ...range })}
                onClick={() => {
                  if (!window.confirm(t('voices.sampleForgetConfirm', { voice: voice.name }))) return;
                  void removeSample(voice.id, sample.id).then(([answer, error]) => {
                    if (answer) setDetail(answer);
                    onError(error);
                  });
                }}
              >
                {t('voices.sampleForget')}
              </button>
            </li>
          );
        })}
      </ul>
      {detail.samples.some((s) => !spare(s.speechSeconds)) && (
        <p id={why} className="hint" data-testid="voice-samples-why">
          {t('voices.sampleLast', { seconds: LIMITS.voiceMinSpeechSeconds })}
        </p>
      )}
    </div>
  );
}
