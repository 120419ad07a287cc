// What only the Electron host can do, as small interfaces the main-process logic is given. Electron
// implements them with dialog, Notification and safeStorage; tests and the end-to-end host with plain
// Node. (SecretBox and SettingsStore live with the settings: settings/secret-box.ts, settings/settings-store.ts.)

export interface FileFilter {
  name: string;
  /** Without dots: ['srt'], ['*'] for all files. */
  extensions: string[];
}

export interface Dialogs {
  /** Lets the user pick audio or video files; [] when cancelled. */
  openAudioFiles(): Promise<string[]>;
  /** Lets the user pick a folder to import; null when cancelled. */
  openFolder(): Promise<string | null>;
  /** Asks where to save; null when cancelled. */
  saveFile(defaultName: string, filters: FileFilter[]): Promise<string | null>;
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
