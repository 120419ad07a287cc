// The waveform, drawn by wavesurfer.js from peaks main computed and cached: the renderer never
// decodes audio. The <audio> element plays the local (or signed) URL main gave.
import { useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { useT } from '../../i18n/use-t';
import { formatPlayerClock, TENTHS_UNDER_SECONDS } from '../../lib/format';
import { SKIP_SECONDS, usePlayerStore, type PlayerController } from '../../stores/player-store';
import { ErrorText } from '../../lib/error-details';

export function Waveform() {
  const t = useT();
  const peaks = usePlayerStore((state) => state.peaks);
  const source = usePlayerStore((state) => state.source);
  const error = usePlayerStore((state) => state.error);
  const currentTime = usePlayerStore((state) => state.currentTime);
  const container = useRef<HTMLDivElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const element = container.current;
    const media = audio.current;
    if (!peaks || !element || !media) return;
    setDrawn(false);
    const styles = getComputedStyle(document.documentElement);
    const ws = WaveSurfer.create({
      container: element,
      media,
      peaks: peaks.peaks,
      duration: peaks.duration,
      // The container's CSS height: lower in a low window (styles.css), redrawn when it changes.
      height: 'auto',
      waveColor: styles.getPropertyValue('--wave').trim() || '#b7c3d6',
      progressColor: styles.getPropertyValue('--wave-progress').trim() || '#2f6fdf',
      cursorColor: styles.getPropertyValue('--accent').trim() || '#2f6fdf',
      cursorWidth: 2,
      normalize: true,
      interact: true,
      dragToSeek: true,
    });
    const controller: PlayerController = {
      play: () => void ws.play().catch(() => usePlayerStore.getState().reportPlaying(false)),
      pause: () => ws.pause(),
      seek: (seconds) => ws.setTime(seconds),
      setRate: (rate) => ws.setPlaybackRate(rate, true),
    };
    const offs = [
      ws.on('timeupdate', (seconds) => usePlayerStore.getState().reportTime(seconds)),
      ws.on('play', () => usePlayerStore.getState().reportPlaying(true)),
      ws.on('pause', () => usePlayerStore.getState().reportPlaying(false)),
      ws.on('finish', () => usePlayerStore.getState().reportPlaying(false)),
      ws.on('redrawcomplete', () => setDrawn(true)),
      // Seeks before 'ready' are clamped to a duration of 0 by wavesurfer, so pending seeks wait for it.
      ws.once('ready', () => usePlayerStore.getState().attach(controller)),
    ];
    return () => {
      offs.forEach((off) => off());
      usePlayerStore.getState().detach(controller);
      ws.destroy();
    };
  }, [peaks]);

  const duration = peaks?.duration ?? 0;
  return (
    <div className="waveform-frame">
      <div
        ref={container}
        className="waveform"
        data-testid="waveform"
        data-drawn={drawn}
        role="slider"
        tabIndex={0}
        aria-label={t('player.waveform')}
        aria-valuemin={0}
        aria-valuemax={sliderValue(duration, duration)}
        aria-valuenow={sliderValue(currentTime, duration)}
        aria-valuetext={t('player.time', {
          current: formatPlayerClock(currentTime, duration),
          total: formatPlayerClock(duration, duration),
        })}
        onKeyDown={(event) => {
          // ←/→ are handled globally; Home/End and PageUp/PageDown make the slider complete.
          const player = usePlayerStore.getState();
          if (event.key === 'Home') player.seek(0);
          else if (event.key === 'End') player.seek(duration);
          else if (event.key === 'PageUp') player.skip(SKIP_SECONDS * 6);
          else if (event.key === 'PageDown') player.skip(-SKIP_SECONDS * 6);
          else return;
          event.preventDefault();
        }}
      />
      <audio ref={audio} data-testid="audio" preload="metadata" src={source?.url} />
      {error && (
        <div className="hint">
          <ErrorText error={error} />
        </div>
      )}
      {!error && peaks && !source && <p className="hint">{t('player.noAudio')}</p>}
    </div>
  );
}

/** Whole seconds, or tenths for short audio as its clock shows them (a 0.2-second file's slider is not 0 to 0). */
function sliderValue(seconds: number, duration: number): number {
  return duration > 0 && duration < TENTHS_UNDER_SECONDS ? Math.round(seconds * 10) / 10 : Math.round(seconds);
}
