// What only the Electron host can do, as small interfaces the main-process logic is given. Electron
// implements them with dialog, Notification and safeStorage; tests and the end-to-end host with plain
// Node. (SecretBox and SettingsStore live with the settings: settings/secret-box.ts, settings/settings-store.ts.)

import type { UiLanguage } from '../src-shared/ipc-contract.js';

export interface FileFilter {
  name: string;
  /** Without dots: ['srt'], ['*'] for all files. */
  extensions: string[];
}

export interface Dialogs {
  /** Lets the user pick audio or video files; [] when cancelled. */
  openAudioFiles(): Promise<string[]>;
  /** Lets the user pick a speech model file (ggml .bin) to install on the server; null when cancelled. */
  openModelFile(): Promise<string | null>;
  /** Lets the user pick a folder to import; null when cancelled. */
  openFolder(): Promise<string | null>;
  /** Asks where to save; null when cancelled. */
  saveFile(defaultName: string, filters: FileFilter[]): Promise<string | null>;
  /**
   * Asks the user, in main's own dialog (never the page's), whether Kikitori may send recordings and
   * the API key to this server: a compromised page cannot answer it (decision 0046). true: go ahead.
   */
  confirmServer(server: ServerToConfirm, language: UiLanguage): Promise<boolean>;
}

export interface ServerToConfirm {
  name: string;
  baseUrl: string;
}

export interface UserNotification {
  title: string;
  body: string;
  /** The transcription it is about, so clicking it can open that transcript. */
  transcriptionId?: string;
}

/** Shows a system notification (Electron: Notification). Called only when the user allows notifications. */
export interface Notifier {
  notify(notification: UserNotification): void;
}
