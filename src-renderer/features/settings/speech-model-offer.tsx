// The first-run offer, in the library: when the server on this computer has no speech model yet and
// the key may download one, suggest the model that suits this computer, once. Not a modal: it sits
// above the library until the user downloads or dismisses it (main remembers the dismissal). It folds
// to one line (the title and its buttons), at first in a low window, and stays as the user leaves it.
// Whether the server can reach the internet is learnt by trying: a failed download says so.
import { useId, useState } from 'react';
import { useT } from '../../i18n/use-t';
import { formatBytes } from '../../lib/format';
import { downloadOf, isRunning, selectOffer, useModelsStore } from '../../stores/models-store';
import { useNavigationStore } from '../../stores/navigation-store';
import { downloadFailedText, errorText, progressText } from './speech-labels';
import { useSpeechModels } from './speech-section';
import { ErrorDetails } from '../../lib/error-details';
import { useCollapsedPanel } from '../../lib/use-collapsed-panel';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';

export function SpeechModelOffer() {
  const t = useT();
  const uiLanguage = useSettingsStore(selectUiLanguage);
  const titleId = useId();
  const bodyId = useId();
  const [collapsed, keep] = useCollapsedPanel('speechOffer');
  useSpeechModels();
  const offered = useModelsStore(selectOffer);
  // Once taken, the banner stays to show progress and the outcome, though the offer itself has ended.
  const [taken, setTaken] = useState<string | null>(null);
  const name = taken ?? offered?.name ?? null;
  const model = useModelsStore((state) => state.models?.models.find((m) => m.name === name) ?? null);
  const download = useModelsStore((state) => (model ? downloadOf(state, model) : null));
  const failure = useModelsStore((state) => (name ? (state.failures[name] ?? null) : null));
  const pending = useModelsStore((state) => (name ? state.pending[name] : undefined));
  const [closed, setClosed] = useState(false);
  if (!model || closed) return null;

  const { download: start, cancel, dismissOffer } = useModelsStore.getState();
  const running = isRunning(download);
  const ready = model.installed;
  const failed = !ready && download?.status === 'FAILED';

  return (
    <section
      className="speech-offer"
      role="region"
      aria-labelledby={titleId}
      data-testid="speech-offer"
      data-collapsed={collapsed}
    >
      <button
        type="button"
        className="speech-offer-toggle"
        aria-expanded={!collapsed}
        aria-controls={bodyId}
        title={collapsed ? t('settings.speech.offer.expand') : t('settings.speech.offer.collapse')}
        onClick={() => keep(!collapsed)}
      >
        <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span>{' '}
        <strong id={titleId}>
          {ready
            ? t('settings.speech.offer.ready', { model: model.name })
            : t(model.multilingual ? 'settings.speech.offer.title' : 'settings.speech.offer.titleEnglish')}
        </strong>
      </button>
      {!ready && !collapsed && (
        <p id={bodyId}>{t('settings.speech.offer.body', { model: model.name, size: formatBytes(model.bytes) })}</p>
      )}
      {running && download && (
        <div className="speech-progress" data-testid="speech-progress" data-status={download.status}>
          <progress
            max={download.totalBytes || 1}
            value={download.receivedBytes}
            aria-label={t('settings.speech.progressLabel', { model: model.name })}
          />
          <small className="muted">{progressText(t, download)}</small>
        </div>
      )}
      {failed && (
        <div className="field-error" role="alert" data-testid="speech-download-failed">
          {downloadFailedText(t, download, uiLanguage)}
          <ErrorDetails detail={download.error} />
        </div>
      )}
      {failure && (
        <p className="field-error" role="alert">
          {errorText(t, failure, uiLanguage)}
        </p>
      )}
      <div className="conflict-actions">
        {!ready && !running && (
          <button
            type="button"
            className="button primary"
            disabled={pending !== undefined}
            onClick={() => {
              setTaken(model.name);
              void start(model.name);
            }}
          >
            {t('settings.speech.offer.download', { model: model.name })}
          </button>
        )}
        {running && (
          <button
            type="button"
            className="button-quiet"
            disabled={pending === 'cancel'}
            onClick={() => void cancel(model.name)}
          >
            {t('settings.speech.cancelDownload', { model: model.name })}
          </button>
        )}
        {!collapsed && (
          <button
            type="button"
            className="button-quiet"
            onClick={() => useNavigationStore.getState().go({ name: 'settings' })}
          >
            {t('settings.speech.offer.settings')}
          </button>
        )}
        {!running && (
          <button
            type="button"
            className="button-quiet"
            onClick={() => {
              setClosed(true);
              if (!taken) void dismissOffer();
            }}
          >
            {ready ? t('common.dismiss') : t('settings.speech.offer.later')}
          </button>
        )}
      </div>
    </section>
  );
}
