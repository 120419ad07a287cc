// Wires the main-process logic together and answers every channel of the IPC contract. Plain Node:
// Electron-only capabilities come in through small interfaces (Dialogs, Notifier, SecretBox,
// SettingsStore, EventSink), so the same services run in Electron, in tests and in the end-to-end host.
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { IPC_CHANNELS, type ConnectionStatus, type IpcError } from '../src-shared/ipc-contract.js';
import type { RetryPolicy } from '../src-shared/backoff.js';
import { pathInside } from './cache/safe-path.js';
import {
  defaultServerScript,
  EmbeddedServer,
  type EmbeddedServerStatus,
  type ServerCommand,
} from './embedded-server/embedded-server.js';
import type { Dialogs, Notifier } from './host-capabilities.js';
import { notificationText, type NotificationEvent } from './notifications.js';
import type { EventSink } from './event-sink.js';
import type { HandlerMap } from './ipc/handler-registry.js';
import { analysisHandlers } from './ipc/handlers/analysis.js';
import { appHandlers } from './ipc/handlers/app.js';
import { audioHandlers } from './ipc/handlers/audio.js';
import { connectionHandlers } from './ipc/handlers/connection.js';
import { languageHandlers } from './ipc/handlers/languages.js';
import { dictionaryHandlers } from './ipc/handlers/dictionaries.js';
import { voiceHandlers } from './ipc/handlers/voices.js';
import { modelHandlers } from './ipc/handlers/models.js';
import type { HandlerContext } from './ipc/handlers/handler-context.js';
import { profileHandlers } from './ipc/handlers/profiles.js';
import { recordingHandlers } from './ipc/handlers/recordings.js';
import { searchHandlers } from './ipc/handlers/search.js';
import { settingsHandlers } from './ipc/handlers/settings.js';
import { transcriptHandlers } from './ipc/handlers/transcripts.js';
import { uploadHandlers } from './ipc/handlers/uploads.js';
import { fileHandlers } from './ipc/handlers/files.js';
import { AppFailure, appError } from './app-failure.js';
import { ProfileSession } from './profile-session.js';
import { FileHandles } from './uploads/file-handles.js';
import type { SecretBox } from './settings/secret-box.js';
import { SettingsService } from './settings/settings-service.js';
import { EMBEDDED_PROFILE_ID, type SettingsStore } from './settings/settings-store.js';
import type { SyncIntervals } from './sync/sync-engine.js';
import { probeChannels } from './peaks/peaks.js';

export type { Dialogs, FileFilter, Notifier, ServerToConfirm, UserNotification } from './host-capabilities.js';
export type { SecretBox } from './settings/secret-box.js';
export type { SettingsData, SettingsStore, StoredProfile } from './settings/settings-store.js';
export type { ServerCommand } from './embedded-server/embedded-server.js';
export type { EventSink } from './event-sink.js';
export type { HandlerMap } from './ipc/handler-registry.js';

export interface MainServicesOptions {
  /** Electron's app.getPath('userData'), or a temp dir in tests. */
  userDataDir: string;
  dialogs: Dialogs;
  notifier: Notifier;
  secrets: SecretBox;
  settings: SettingsStore;
  emit: EventSink;
  /**
   * How to run bin/kikitori-server.js. Default: this process's executable with ELECTRON_RUN_AS_NODE=1
   * (Electron runs as Node; plain Node ignores it) on the launcher found above this module.
   */
  serverCommand?: ServerCommand;
  appVersion: string;
  platform: string;
  locale: string;
  /** Tuning, for tests: poll intervals, retry policy, extra environment for the embedded server. */
  tuning?: { syncIntervals?: Partial<SyncIntervals>; retry?: Partial<RetryPolicy>; serverEnv?: Record<string, string> };
}

export interface MainServices {
  /** A handler for every channel of src-shared/ipc-contract.ts. */
  handlers: HandlerMap;
  /** Opens the active profile's cache, starts polling and uploads, and starts the embedded server. */
  start(): Promise<void>;
  /** Stops everything (uploads stay queued for the next start) and the embedded server. */
  stop(): Promise<void>;
  /**
   * The local audio file behind `kikitori-media://<id>`, for the protocol handler (Electron) or the
   * test host's HTTP route; null when the audio is not on this computer.
   */
  resolveMediaPath(id: string): Promise<string | null>;
}

export function defaultServerCommand(): ServerCommand {
  const script = defaultServerScript(import.meta.dirname);
  if (!script) throw new Error('bin/kikitori-server.js was not found next to the app; pass serverCommand.');
  return { command: process.execPath, args: [script], env: { ELECTRON_RUN_AS_NODE: '1' } };
}

export async function createMainServices(options: MainServicesOptions): Promise<MainServices> {
  const { userDataDir, emit } = options;
  await fsp.mkdir(userDataDir, { recursive: true });
  const embedded = new EmbeddedServer({
    command: options.serverCommand ?? defaultServerCommand(),
    dataDir: path.join(userDataDir, 'server-data'),
    keyFile: path.join(userDataDir, 'server-key.bin'),
    secrets: options.secrets,
    serveEnv: options.tuning?.serverEnv,
    onStatus: (status) => onEmbeddedStatus(status),
  });
  const settings = new SettingsService(options.settings, options.secrets, () => embedded.url ?? '');
  const notify = (event: NotificationEvent) => {
    const current = settings.settings();
    if (current.notifications) options.notifier.notify(notificationText(event, current.uiLanguage));
  };

  let session: ProfileSession | null = null;
  let switching: Promise<unknown> = Promise.resolve();

  const openSession = (profileId: string): ProfileSession => {
    const profile = settings.profile(profileId)!;
    const next = new ProfileSession({
      profile,
      dir: profileDir(profileId),
      connection: profile.kind === 'embedded' ? () => embedded.connection() : remoteConnection(profileId),
      emit,
      notify,
      syncIntervals: options.tuning?.syncIntervals,
      retry: options.tuning?.retry,
      speech: {
        machine: { totalMemoryBytes: os.totalmem(), cpuCount: os.availableParallelism() },
        offer: { dismissed: () => settings.speechOfferDismissed(), dismiss: () => settings.dismissSpeechOffer() },
      },
    });
    next.start();
    if (profile.kind === 'embedded') startEmbedded();
    return next;
  };

  const profileDir = (profileId: string) => pathInside(path.join(userDataDir, 'profiles'), profileId);

  const remoteConnection = (profileId: string) => {
    let cached: { baseUrl: string; apiKey: string } | { unavailable: IpcError } | null = null;
    return () => {
      if (!cached) {
        const profile = settings.profile(profileId);
        try {
          cached = profile
            ? { baseUrl: profile.baseUrl, apiKey: settings.apiKeyOf(profileId) }
            : { unavailable: appError({ code: 'offline', reason: 'profile-removed' }) };
        } catch (error) {
          cached = {
            unavailable:
              error instanceof AppFailure
                ? error.error
                : appError({ code: 'internal', reason: 'internal', detail: String(error) }),
          };
        }
      }
      return cached;
    };
  };

  const startEmbedded = () => {
    embedded.start().catch(() => {
      // The status callback reports it; the connection says why it is unavailable.
    });
  };

  function onEmbeddedStatus(status: EmbeddedServerStatus) {
    const current = session;
    if (!current || current.profile.kind !== 'embedded') return;
    if (status.state === 'running') void current.sync.refreshNow().catch(() => {});
    else if (status.state === 'crashed') {
      current.sync.setReachability({
        state: 'offline',
        detail: appError({ code: 'offline', reason: 'embedded-stopped', detail: status.detail }),
      });
    }
  }

  const active = (): ProfileSession => {
    if (!session) throw new Error('Main services are not started.');
    return session;
  };

  const serialized = <T>(run: () => Promise<T>): Promise<T> => {
    const next = switching.then(run, run);
    switching = next.catch(() => {});
    return next;
  };

  const activateProfile = (id: string): Promise<ConnectionStatus> =>
    serialized(async () => {
      const profile = settings.profile(id);
      if (profile && session?.profile.id !== id && !settings.serverConfirmed(id)) {
        // Before main sends anything (the API key, recordings) to a server it has not sent to, the user
        // says so in main's own dialog: a compromised page cannot switch the app to its own server.
        const confirmed = await options.dialogs.confirmServer(
          { name: profile.name, baseUrl: profile.baseUrl },
          settings.settings().uiLanguage,
        );
        if (!confirmed) {
          throw new AppFailure({
            code: 'cancelled',
            reason: 'switch-not-confirmed',
            params: { name: profile.name, url: profile.baseUrl },
          });
        }
        settings.confirmServer(id);
      }
      settings.setActiveProfile(id);
      if (session?.profile.id !== id) {
        const previous = session;
        session = null;
        await previous?.stop();
        session = openSession(id);
      }
      return session.sync.status();
    });

  const removeProfile = (id: string): Promise<void> =>
    serialized(async () => {
      const wasActive = session?.profile.id === id;
      settings.removeProfile(id);
      if (wasActive) {
        const previous = session;
        session = null;
        await previous?.stop();
        session = openSession(EMBEDDED_PROFILE_ID);
      }
      await fsp.rm(profileDir(id), { recursive: true, force: true });
    });

  const ctx: HandlerContext = {
    session: active,
    settings,
    dialogs: options.dialogs,
    files: new FileHandles(Date.now, (file) => probeChannels(file)),
    activateProfile,
    removeProfile,
    app: { version: options.appVersion, platform: options.platform, locale: options.locale },
  };

  const handlers: HandlerMap = {
    ...appHandlers(ctx),
    ...connectionHandlers(ctx),
    ...profileHandlers(ctx),
    ...settingsHandlers(ctx),
    ...languageHandlers(ctx),
    ...transcriptHandlers(ctx),
    ...searchHandlers(ctx),
    ...uploadHandlers(ctx),
    ...recordingHandlers(ctx),
    ...audioHandlers(ctx),
    ...dictionaryHandlers(ctx),
    ...voiceHandlers(ctx),
    ...analysisHandlers(ctx),
    ...modelHandlers(ctx),
    ...fileHandlers(ctx),
  };
  const missing = IPC_CHANNELS.filter((channel) => typeof handlers[channel] !== 'function');
  if (missing.length > 0) throw new Error(`No handler for ${missing.join(', ')}`);

  return {
    handlers,
    start: () =>
      serialized(async () => {
        if (!session) session = openSession(settings.activeProfileId());
      }),
    stop: () =>
      serialized(async () => {
        const previous = session;
        session = null;
        await previous?.stop();
        await embedded.stop();
      }),
    resolveMediaPath: async (id) => session?.transcripts.localAudio(id) ?? null,
  };
}
