// Electron's implementations of what only the desktop host can do: file dialogs, system
// notifications and OS-level encryption of API keys.
import { BrowserWindow, dialog, Notification, safeStorage } from 'electron';
import type { Dialogs, FileFilter, Notifier, UserNotification } from './host-capabilities.js';
import { serverConsentText } from './server-consent.js';
import type { SecretBox } from './settings/secret-box.js';

const AUDIO_EXTENSIONS = [
  'wav',
  'mp3',
  'm4a',
  'aac',
  'flac',
  'ogg',
  'opus',
  'webm',
  'mp4',
  'mov',
  'mkv',
  'wma',
  'aiff',
  'aif',
];

export function electronDialogs(parent: () => BrowserWindow | null): Dialogs {
  return {
    async openAudioFiles() {
      const window = parent();
      const options: Electron.OpenDialogOptions = {
        properties: ['openFile', 'multiSelections'],
        filters: [
          { name: 'Audio and video', extensions: AUDIO_EXTENSIONS },
          { name: 'All files', extensions: ['*'] },
        ],
      };
      const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return result.canceled ? [] : result.filePaths;
    },
    async openModelFile() {
      const window = parent();
      const options: Electron.OpenDialogOptions = {
        properties: ['openFile'],
        filters: [
          { name: 'Speech model', extensions: ['bin'] },
          { name: 'All files', extensions: ['*'] },
        ],
      };
      const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async openFolder() {
      const window = parent();
      const options: Electron.OpenDialogOptions = { properties: ['openDirectory'] };
      const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async saveFile(defaultName: string, filters: FileFilter[]) {
      const window = parent();
      const options: Electron.SaveDialogOptions = { defaultPath: defaultName, filters };
      const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    async confirmServer(server, language) {
      const window = parent();
      const text = serverConsentText(server, language);
      const options: Electron.MessageBoxOptions = {
        type: 'question',
        title: text.title,
        message: text.message,
        detail: text.detail,
        buttons: text.buttons,
        defaultId: 1,
        cancelId: 1,
        noLink: true,
      };
      const result = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
      return result.response === 0;
    },
  };
}

export function electronNotifier(onClick: (notification: UserNotification) => void): Notifier {
  return {
    notify(notification) {
      if (!Notification.isSupported()) return;
      const shown = new Notification({ title: notification.title, body: notification.body });
      shown.on('click', () => onClick(notification));
      shown.show();
    },
  };
}

/**
 * API keys encrypted with the OS keychain (Keychain, DPAPI, libsecret/kwallet). On Linux without a
 * keyring safeStorage would fall back to a fixed, well-known key; that is not protection, so the box
 * then reports itself unavailable and keys are not persisted.
 */
export function electronSecretBox(): SecretBox {
  return {
    isAvailable: () =>
      safeStorage.isEncryptionAvailable() &&
      (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
    encrypt: (plainText) => safeStorage.encryptString(plainText),
    decrypt: (encrypted) => safeStorage.decryptString(encrypted),
  };
}
