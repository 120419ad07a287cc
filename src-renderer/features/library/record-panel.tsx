// Record from the microphone: the toolbar's Record button opens this panel. The level meter runs as
// soon as the microphone is open, so the user can check it before recording; a timer counts recorded
// time (pauses excluded). Stop queues the recording with the upload options; Discard deletes it.
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/use-t';
import { Modal } from '../../lib/modal';
import { formatBytes } from '../../lib/format';
import { currentLevel, recordedMs, useRecorderStore } from '../../stores/recorder-store';
import { queueStateOf } from './queue-state';
import { stateText } from './uploads-panel';
import { ErrorText } from '../../lib/error-details';
import { SOUND_SOURCES, type SoundSource } from '../../lib/microphone';

export function RecordButton() {
  const t = useT();
  const open = useRecorderStore((state) => state.open);
  return (
    <button type="button" className="button record-button" data-testid="record-button" onClick={() => void open()}>
      <span className="record-dot" aria-hidden="true" />
      {t('record.button')}
    </button>
  );
}

export function RecordPanel() {
  const phase = useRecorderStore((state) => state.phase);
  if (phase === 'closed') return null;
  return <RecordDialog />;
}

function RecordDialog() {
  const t = useT();
  const id = useId();
  const { phase, problem, error, devices, deviceId, source, kept } = useRecorderStore();
  const store = useRecorderStore.getState();
  const busy = phase === 'recording' || phase === 'paused' || phase === 'saving';

  return (
    <Modal
      className="record-panel"
      title={t('record.title')}
      onClose={() => store.close()}
      testId="record-panel"
      phase={phase}
    >
      <div className="field record-source">
        <label htmlFor={`${id}-source`}>{t('record.source')}</label>
        <select
          id={`${id}-source`}
          data-testid="record-source"
          value={source}
          disabled={busy || phase === 'opening'}
          onChange={(event) => void store.chooseSource(event.target.value as SoundSource)}
        >
          {SOUND_SOURCES.map((option) => (
            <option key={option} value={option}>
              {t(`record.source.${option}`)}
            </option>
          ))}
        </select>
      </div>
      {phase === 'unavailable' && problem ? (
        <div className="record-problem" role="alert" data-testid="record-problem" data-problem={problem}>
          <p>{t(`record.problem.${problem}`)}</p>
          {problem !== 'unsupported' && (
            <button type="button" className="button" onClick={() => void store.chooseDevice(deviceId ?? '')}>
              {t('record.tryAgain')}
            </button>
          )}
        </div>
      ) : (
        <>
          {devices.length > 1 && source !== 'system' && (
            <div className="field record-device">
              <label htmlFor={`${id}-device`}>{t('record.microphone')}</label>
              <select
                id={`${id}-device`}
                value={deviceId ?? ''}
                disabled={busy || phase === 'opening'}
                onChange={(event) => void store.chooseDevice(event.target.value)}
              >
                {devices.map((device, index) => (
                  <option key={device.id} value={device.id}>
                    {device.label || t('record.microphoneNumber', { n: index + 1 })}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="record-status">
            <LevelMeter active={phase !== 'opening'} />
            <RecordTimer />
          </div>
          <p className="hint" role="status" data-testid="record-state">
            {t(`record.state.${phase === 'unavailable' || phase === 'closed' ? 'opening' : phase}`)}
          </p>
          {busy && <LiveTextView />}
        </>
      )}
      {error && (
        <div className="field-error" role="alert" data-testid="record-error">
          <ErrorText error={error} />
        </div>
      )}
      <p className="hint">{t('record.hint')}</p>
      <div className="row-actions">
        {!busy && (
          <button type="button" className="button" onClick={() => store.close()}>
            {t('common.close')}
          </button>
        )}
        {(phase === 'recording' || phase === 'paused') && (
          <button
            type="button"
            className="button"
            data-testid="record-discard"
            // Beside Pause, and nothing brings the recording back: asked first.
            onClick={() => window.confirm(t('record.discardConfirm')) && void store.discard()}
          >
            {t('record.discard')}
          </button>
        )}
        {phase === 'recording' && (
          <button type="button" className="button" data-testid="record-pause" onClick={() => store.pause()}>
            {t('record.pause')}
          </button>
        )}
        {phase === 'paused' && (
          <button type="button" className="button" data-testid="record-resume" onClick={() => store.resume()}>
            {t('record.resume')}
          </button>
        )}
        {(phase === 'ready' || phase === 'opening') && (
          <button
            type="button"
            className="button primary"
            data-testid="record-start"
            disabled={phase !== 'ready'}
            onClick={() => void store.record()}
          >
            <span className="record-dot" aria-hidden="true" />
            {t('record.start')}
          </button>
        )}
        {(phase === 'recording' || phase === 'paused' || phase === 'saving') && (
          <button
            type="button"
            className="button primary"
            data-testid="record-stop"
            disabled={phase === 'saving'}
            onClick={() => void store.stop()}
          >
            {t('record.stop')}
          </button>
        )}
      </div>
      {kept.length > 0 && (
        <section className="record-kept" aria-labelledby={`${id}-kept`}>
          <h3 id={`${id}-kept`}>{t('record.kept.heading')}</h3>
          <ul>
            {kept.map((recording) => (
              <li key={recording.id} data-testid="kept-recording">
                <span className="upload-name">{recording.fileName}</span>
                <span className="hint">
                  {formatBytes(recording.size)} ·{' '}
                  {recording.upload
                    ? stateText(t, queueStateOf(recording.upload, undefined))
                    : t('record.kept.notQueued')}
                </span>
                <span className="spacer" />
                {recording.upload?.state !== 'done' && (
                  <button
                    type="button"
                    className="button-quiet"
                    aria-label={t('record.kept.transcribeLabel', { name: recording.fileName })}
                    onClick={() => void store.transcribeKept(recording.id)}
                  >
                    {t('record.kept.transcribe')}
                  </button>
                )}
                <button
                  type="button"
                  className="button-quiet"
                  aria-label={t('record.kept.discardLabel', { name: recording.fileName })}
                  onClick={() => void store.discardKept(recording.id)}
                >
                  {t('record.discard')}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Modal>
  );
}

/** Moves with the sound: the bar and `data-level` are updated each frame, outside React. */
function LevelMeter({ active }: { active: boolean }) {
  const t = useT();
  const meter = useRef<HTMLDivElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!active) return;
    let frame = 0;
    let shown = 0;
    const tick = () => {
      const level = currentLevel();
      // Rises at once, falls gently, as level meters do.
      shown = Math.max(level, shown * 0.92);
      // Clipped, not scaled, so the colours stay where they are on the scale (red is always the top).
      if (bar.current) bar.current.style.clipPath = `inset(0 ${((1 - shown) * 100).toFixed(1)}% 0 0)`;
      if (meter.current) {
        meter.current.dataset.level = shown.toFixed(3);
        meter.current.setAttribute('aria-valuenow', String(Math.round(shown * 100)));
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [active]);
  return (
    <div
      ref={meter}
      className="level-meter"
      role="meter"
      aria-label={t('record.level')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={0}
      data-testid="level-meter"
      data-level="0"
    >
      <div ref={bar} className="level-meter-bar" />
    </div>
  );
}

/** What the server has heard so far (decision 0073): final turns plain, the turn being spoken greyed. */
export function LiveTextView() {
  const t = useT();
  const live = useRecorderStore((state) => state.live);
  const state = live?.state ?? 'connecting';
  const empty = !live || (live.finals.length === 0 && live.partial === '');
  // Without live text to show, the note alone: no empty box when the server has none to offer.
  const box = state === 'live' || !empty;
  return (
    <section className="record-live" aria-label={t('record.live.label')} data-testid="live-text" data-state={state}>
      <div className="record-live-text" aria-live="polite" hidden={!box}>
        {live?.finals.map((turn, index) => (
          <span key={index} className="live-final" data-testid="live-final">
            {/* A known voice is named where the speaker changes, as a transcript's turns are. */}
            {turn.speaker && turn.speaker !== live.finals[index - 1]?.speaker && (
              <strong className="live-speaker" data-testid="live-speaker">
                {t('record.live.speaker', { name: turn.speaker })}
              </strong>
            )}
            {turn.text}{' '}
          </span>
        ))}
        {live?.partial && (
          <span className="live-partial" data-testid="live-partial">
            {live.partial}
          </span>
        )}
        {empty && state === 'live' && <span className="hint">{t('record.live.waiting')}</span>}
      </div>
      {state !== 'live' && (
        <p className="hint" data-testid="live-note">
          {t(`record.live.${state}`)}
        </p>
      )}
      {state === 'live' && !empty && <p className="hint">{t('record.live.replaced')}</p>}
    </section>
  );
}

function RecordTimer() {
  const t = useT();
  const elapsedMs = useRecorderStore((state) => state.elapsedMs);
  const runningSince = useRecorderStore((state) => state.runningSince);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (runningSince === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [runningSince]);
  const seconds = Math.floor(recordedMs({ elapsedMs, runningSince }, Math.max(now, runningSince ?? 0)) / 1000);
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <span className="record-timer" role="timer" aria-label={t('record.elapsed')} data-testid="record-timer">
      {text}
    </span>
  );
}
