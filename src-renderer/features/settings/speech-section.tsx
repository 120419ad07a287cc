// Settings → Speech recognition: what serves transcriptions now, the installed and available speech
// models of the active server (a damaged one says so), and (with an OPERATOR key) downloading with progress, cancelling,
// installing from a file the user has (a server that cannot reach the model host) and deleting them.
import { useEffect, useId, useRef, useState } from 'react';
import type { SpeechModel } from '../../../src-shared/ipc-contract';
import { joinSentences } from '../../i18n/messages';
import { useT } from '../../i18n/use-t';
import { formatBytes } from '../../lib/format';
import { downloadOf, isRunning, useModelsStore } from '../../stores/models-store';
import { selectActiveProfile, selectUiLanguage, useSettingsStore } from '../../stores/settings-store';
import { useNavigationStore } from '../../stores/navigation-store';
import {
  downloadFailedText,
  engineHeadline,
  errorText,
  groupModels,
  modelName,
  precisionLabel,
  progressText,
  variantName,
  type ModelGroup,
} from './speech-labels';
import { ErrorDetails } from '../../lib/error-details';

/** Loads the models and follows main's progress events while mounted. */
export function useSpeechModels() {
  useEffect(() => {
    const off = useModelsStore.getState().follow();
    void useModelsStore.getState().load();
    return off;
  }, []);
}

export function SpeechSection() {
  const t = useT();
  const uiLanguage = useSettingsStore(selectUiLanguage);
  const id = useId();
  useSpeechModels();
  const models = useModelsStore((state) => state.models);
  const error = useModelsStore((state) => state.error);
  const loading = useModelsStore((state) => state.loading);
  const profile = useSettingsStore(selectActiveProfile);

  const installed = models?.models.filter((m) => m.installed) ?? [];
  const available = models?.models.filter((m) => !m.installed) ?? [];
  const headline = models ? engineHeadline(t, models.serving.default, models.models) : null;
  // Opened from "Speech models in Settings…" (the Transcribe again dialog): shown and focused.
  const asked = useNavigationStore((state) => state.route.name === 'settings' && state.route.section === 'speech');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!asked) return;
    heading.current?.closest('section')?.scrollIntoView({ block: 'start' });
    heading.current?.focus();
  }, [asked]);

  return (
    <section className="card speech" aria-labelledby={`${id}-title`} data-testid="speech-section">
      <h2 className="section-title" id={`${id}-title`} ref={heading} tabIndex={-1}>
        {t('settings.speech.heading')}
      </h2>
      <p className="muted speech-intro">{t('settings.speech.intro')}</p>
      {error && (
        <div className="error-banner speech-error" role="alert">
          {joinSentences(uiLanguage, t('settings.speech.loadFailed'), errorText(t, error, uiLanguage))}{' '}
          <button type="button" className="button-quiet" onClick={() => void useModelsStore.getState().load()}>
            {t('settings.speech.retry')}
          </button>
        </div>
      )}
      {!models && !error && loading && <p className="muted">{t('common.loading')}</p>}
      {models && headline !== null && (
        <>
          <div className="speech-in-use" data-testid="speech-in-use" data-engine={models.serving.default.engine}>
            <span className="muted">{t('settings.speech.inUse')}</span>
            <strong className="speech-headline" data-testid="speech-headline">
              {headline}
            </strong>
            {models.serving.default.engine === 'pocketsphinx' && <small>{t('settings.speech.builtinHint')}</small>}
            {!models.serving.default.usable && models.serving.default.reason && (
              <small className="state-failed">
                {t('settings.speech.unusable', { reason: models.serving.default.reason })}
              </small>
            )}
          </div>
          {profile?.kind === 'remote' && (
            <p className="muted">{t('settings.speech.remote', { server: hostOf(profile.baseUrl) })}</p>
          )}
          {!models.canManage && (
            <p className="speech-note" data-testid="speech-not-admin">
              {t('settings.speech.notAdmin')}
            </p>
          )}

          <h3 className="section-title speech-subtitle">{t('settings.speech.installed')}</h3>
          {installed.length === 0 ? (
            <p className="muted">{t('settings.speech.noneInstalled')}</p>
          ) : (
            <ul className="speech-list" data-testid="speech-installed">
              {groupModels(installed).map((group) => (
                <ModelGroupItem
                  key={group.key}
                  group={group}
                  canManage={models.canManage}
                  recommended={models.recommended}
                />
              ))}
            </ul>
          )}
          <h3 className="section-title speech-subtitle">{t('settings.speech.available')}</h3>
          {available.length === 0 ? (
            <p className="muted">{t('settings.speech.allInstalled')}</p>
          ) : (
            <ul className="speech-list" data-testid="speech-available">
              {groupModels(available).map((group) => (
                <ModelGroupItem
                  key={group.key}
                  group={group}
                  canManage={models.canManage}
                  recommended={models.recommended}
                />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** A model by its plain name with its speed and accuracy, and under it its files (full, compressed). */
function ModelGroupItem({
  group,
  canManage,
  recommended,
}: {
  group: ModelGroup;
  canManage: boolean;
  recommended: string | null;
}) {
  const t = useT();
  const headId = useId();
  return (
    <li className="speech-group" data-testid="speech-group" data-family={group.family} aria-labelledby={headId}>
      <div className="speech-group-head">
        <strong id={headId}>{modelName(t, group)}</strong>
        <small className="muted">
          {t('settings.speech.hints', {
            speed: t(`settings.speech.speed.${group.speed}`),
            accuracy: t(`settings.speech.accuracy.${group.accuracy}`),
          })}
        </small>
      </div>
      <ul className="speech-list speech-variants">
        {group.variants.map((model) => (
          <ModelRow key={model.name} model={model} canManage={canManage} recommended={model.name === recommended} />
        ))}
      </ul>
    </li>
  );
}

function ModelRow({ model, canManage, recommended }: { model: SpeechModel; canManage: boolean; recommended: boolean }) {
  const t = useT();
  const uiLanguage = useSettingsStore(selectUiLanguage);
  const download = useModelsStore((state) => downloadOf(state, model));
  const pending = useModelsStore((state) => state.pending[model.name]);
  const failure = useModelsStore((state) => state.failures[model.name] ?? null);
  const [confirming, setConfirming] = useState(false);
  const running = isRunning(download);
  const { download: start, cancel, remove, installFromFile } = useModelsStore.getState();
  const name = variantName(t, model);

  return (
    <li
      className="speech-model"
      data-testid="speech-model"
      data-model={model.name}
      data-installed={model.installed}
      data-damaged={model.damaged}
      aria-label={name}
    >
      <div className="speech-model-head">
        <span className="speech-model-info">
          <span className="speech-model-name">
            <strong>{precisionLabel(t, model.precision)}</strong>
            {model.damaged && <span className="badge badge-warn">{t('settings.speech.damagedBadge')}</span>}
            {recommended && !model.damaged && (
              <span className="badge badge-ok">{t('settings.speech.recommended')}</span>
            )}
          </span>
          <span className="speech-model-facts muted" title={model.name}>
            {formatBytes(model.bytes)}
          </span>
        </span>
        {canManage && (
          <span className="row-actions">
            {!model.installed && !running && (
              <button
                type="button"
                className="button"
                disabled={pending !== undefined}
                aria-label={t('settings.speech.downloadModel', { model: name })}
                onClick={() => void start(model.name)}
              >
                {t('settings.speech.download')}
              </button>
            )}
            {!model.installed && !running && (
              <button
                type="button"
                className="button-quiet"
                disabled={pending !== undefined}
                title={t('settings.speech.installFileHint', { file: model.file })}
                aria-label={t('settings.speech.installFileModel', { model: name })}
                onClick={() => void installFromFile(model.name)}
              >
                {t('settings.speech.installFile')}
              </button>
            )}
            {running && download?.status !== 'INSTALLING' && (
              <button
                type="button"
                className="button-quiet"
                disabled={pending === 'cancel'}
                aria-label={t('settings.speech.cancelDownload', { model: name })}
                onClick={() => void cancel(model.name)}
              >
                {t('common.cancel')}
              </button>
            )}
            {model.installed && !confirming && (
              <button
                type="button"
                className="button-quiet danger"
                disabled={pending !== undefined}
                aria-label={t('settings.speech.deleteModel', { model: name })}
                onClick={() => setConfirming(true)}
              >
                {t('settings.speech.delete')}
              </button>
            )}
          </span>
        )}
      </div>
      {model.damaged && (
        <p className="field-error" data-testid="speech-damaged">
          {t(canManage ? 'settings.speech.damaged' : 'settings.speech.damagedAsk')}
        </p>
      )}
      {confirming && (
        <div className="speech-confirm" role="group" aria-label={t('settings.speech.deleteModel', { model: name })}>
          <span>{t('settings.speech.confirmDelete', { model: name })}</span>
          <button
            type="button"
            className="button danger"
            onClick={() => {
              setConfirming(false);
              void remove(model.name);
            }}
          >
            {t('settings.speech.delete')}
          </button>
          <button type="button" className="button-quiet" onClick={() => setConfirming(false)}>
            {t('settings.speech.keep')}
          </button>
        </div>
      )}
      {download && <DownloadState name={name} installed={model.installed} download={download} />}
      {failure && (
        <p className="field-error" role="alert" data-testid="speech-failure">
          {failure.code === 'validation'
            ? t('settings.speech.installWrongFile', { model: name, file: model.file })
            : errorText(t, failure, uiLanguage)}
        </p>
      )}
    </li>
  );
}

function DownloadState({
  name,
  installed,
  download,
}: {
  name: string;
  installed: boolean;
  download: NonNullable<SpeechModel['download']>;
}) {
  const t = useT();
  const uiLanguage = useSettingsStore(selectUiLanguage);
  if (isRunning(download)) {
    return (
      <div className="speech-progress" data-testid="speech-progress" data-status={download.status}>
        <progress
          max={download.totalBytes || 1}
          value={download.status === 'VERIFYING' ? download.totalBytes || 1 : download.receivedBytes}
          aria-label={t('settings.speech.progressLabel', { model: name })}
        />
        <small className="muted" data-testid="speech-progress-text">
          {progressText(t, download)}
        </small>
      </div>
    );
  }
  // A finished download shows nothing more: the model now sits among the installed ones.
  if (download.status === 'FAILED' && !installed) {
    return (
      <div className="field-error" role="alert" data-testid="speech-download-failed">
        {downloadFailedText(t, download, uiLanguage)}
        <ErrorDetails detail={download.error} />
      </div>
    );
  }
  if (download.status === 'CANCELLED' && !installed)
    return <small className="muted">{t('settings.speech.cancelled')}</small>;
  return null;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
