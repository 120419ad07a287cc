// The real main-process services (src-main/services.ts), given test stand-ins for what only Electron
// can do: dialogs answering preset paths, a notifier that records, an AES-GCM secret box and conf
// settings. Main's "switch to this server?" dialog answers yes unless a spec says otherwise. A remote profile pointing at the test's server is added and made active before start, so
// the embedded server never runs and the test owns the kikitori-server process (it can stop it).
import { randomBytes } from 'node:crypto';
import type { UiLanguage } from '../../../src-shared/ipc-contract.js';
import {
  createMainServices,
  type Dialogs,
  type FileFilter,
  type MainServices,
  type Notifier,
  type ServerToConfirm,
  type UserNotification,
} from '../../../src-main/services.js';
import type { EventSink } from '../../../src-main/event-sink.js';
import { createConfSettingsStore } from '../../../src-main/settings/conf-settings-store.js';
import { createAesGcmSecretBox } from '../../../src-main/settings/secret-box.js';

export class TestDialogs implements Dialogs {
  /** What the next "choose files" answers ([] = cancelled). */
  openPaths: string[] = [];
  /** What the next "choose a speech model file" answers (null = cancelled). */
  modelFilePath: string | null = null;
  /** What the next "import folder" answers (null = cancelled). */
  folderPath: string | null = null;
  /** What the next save dialog answers (null = cancelled). */
  savePath: string | null = null;
  readonly saveRequests: Array<{ defaultName: string; filters: FileFilter[] }> = [];
  /** What the next "switch to this server?" answers (the user's choice in main's dialog); a promise keeps it open. */
  confirmServerAnswer: boolean | Promise<boolean> = true;
  /** Every server main asked about, with the UI's language. */
  readonly serverQuestions: Array<{ server: ServerToConfirm; language: UiLanguage }> = [];

  async openAudioFiles() {
    return this.openPaths;
  }

  async openModelFile() {
    return this.modelFilePath;
  }

  async openFolder() {
    return this.folderPath;
  }

  async saveFile(defaultName: string, filters: FileFilter[]) {
    this.saveRequests.push({ defaultName, filters });
    return this.savePath;
  }

  async confirmServer(server: ServerToConfirm, language: UiLanguage) {
    this.serverQuestions.push({ server, language });
    return await this.confirmServerAnswer;
  }
}

export class RecordingNotifier implements Notifier {
  readonly notifications: UserNotification[] = [];
  notify(notification: UserNotification) {
    this.notifications.push(notification);
  }
}

export interface HostServices extends MainServices {
  dialogs: TestDialogs;
  notifier: RecordingNotifier;
  /** The active (remote) profile. */
  profileId: string;
}

export async function createHostServices(options: {
  userDataDir: string;
  events: EventSink;
  server: { url: string; apiKey: string };
  /** bin/kikitori-server.js, for the embedded server (never started while a remote profile is active). */
  launcher: string;
}): Promise<HostServices> {
  const dialogs = new TestDialogs();
  const notifier = new RecordingNotifier();
  const services = await createMainServices({
    userDataDir: options.userDataDir,
    dialogs,
    notifier,
    secrets: createAesGcmSecretBox(randomBytes(32)),
    settings: createConfSettingsStore({ cwd: options.userDataDir, locale: 'en' }),
    emit: options.events,
    serverCommand: { command: process.execPath, args: [options.launcher] },
    appVersion: '0.0.0-e2e',
    platform: process.platform,
    locale: 'en-US',
    // Quick polls: the specs wait on states, and a test server answers at once.
    tuning: {
      syncIntervals: { minMs: 250, maxMs: 1_000, idleMs: 2_000, offlineMaxMs: 1_000 },
      retry: { retries: 1, baseDelayMs: 50, maxDelayMs: 200 },
    },
  });
  const added = await services.handlers['profiles:add']({
    name: 'Test server',
    baseUrl: options.server.url,
    apiKey: options.server.apiKey,
  });
  await services.handlers['profiles:activate']({ id: added.id });
  return { ...services, dialogs, notifier, profileId: added.id };
}
