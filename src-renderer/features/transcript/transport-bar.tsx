import { useId } from 'react';
import { useT } from '../../i18n/use-t';
import { formatPlayerClock } from '../../lib/format';
import { PLAYBACK_RATES, SKIP_SECONDS, usePlayerStore } from '../../stores/player-store';
import { useSettingsStore } from '../../stores/settings-store';

export function TransportBar({ onShowShortcuts }: { onShowShortcuts?: () => void }) {
  const t = useT();
  const id = useId();
  const playing = usePlayerStore((state) => state.playing);
  const currentTime = usePlayerStore((state) => state.currentTime);
  const duration = usePlayerStore((state) => state.duration);
  const rate = usePlayerStore((state) => state.rate);
  const ready = usePlayerStore((state) => state.controller !== null);
  const { togglePlay, skip, setRate } = usePlayerStore.getState();
  return (
    <div className="transport">
      <button
        type="button"
        className="icon-button"
        onClick={() => skip(-SKIP_SECONDS)}
        aria-label={t('player.back')}
        disabled={!ready}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            d="M11 6 5 12l6 6M19 6l-6 6 6 6"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      <button
        type="button"
        className="icon-button play"
        data-testid="play-button"
        onClick={togglePlay}
        aria-label={playing ? t('player.pause') : t('player.play')}
        aria-pressed={playing}
        disabled={!ready}
      >
        {playing ? (
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M7 5h3v14H7zM14 5h3v14h-3z" fill="currentColor" />
          </svg>
        ) : (
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M7 4.5v15l13-7.5z" fill="currentColor" />
          </svg>
        )}
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={() => skip(SKIP_SECONDS)}
        aria-label={t('player.forward')}
        disabled={!ready}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            d="m13 6 6 6-6 6M5 6l6 6-6 6"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      <span className="time" data-testid="player-time" data-seconds={currentTime.toFixed(2)}>
        {formatPlayerClock(currentTime, duration)} / {formatPlayerClock(duration, duration)}
      </span>
      <label htmlFor={`${id}-rate`}>{t('player.rate')}</label>
      <select
        id={`${id}-rate`}
        value={rate}
        onChange={(event) => {
          const next = Number(event.target.value);
          setRate(next);
          void useSettingsStore.getState().update({ playbackRate: next });
        }}
      >
        {PLAYBACK_RATES.map((value) => (
          <option key={value} value={value}>
            {value}×
          </option>
        ))}
      </select>
      <span className="hint keys">{t('player.keys')}</span>
      {onShowShortcuts && (
        <button type="button" className="button-quiet" onClick={onShowShortcuts} aria-keyshortcuts="?">
          {t('player.allKeys')}
        </button>
      )}
    </div>
  );
}
