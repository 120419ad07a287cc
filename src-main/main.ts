// The Electron entry: app lifecycle only. Everything the app does lives in the main services
// (services.ts), which this file creates with Electron's dialogs, notifications, keychain and store,
// then serves to the window through typed-ipc.ts and the kikitori-app:// and kikitori-media:// protocols.
import { app, BrowserWindow } from 'electron';
import { electronDialogs, electronNotifier, electronSecretBox } from './electron-adapters.js';
import { createEventSink, registerIpcHandlers, trustedRendererUrl } from './ipc/typed-ipc.js';
import { handleAppProtocol, handleMediaProtocol, registerSchemesSync } from './app-protocols.js';
import { createMainServices, type MainServices } from './services.js';
import { createElectronSettingsStore } from './settings/electron-settings-store.js';
import { enableFeaturesValue } from './system-audio.js';
import { createMainWindow, hardenSession } from './window.js';
import { rendererLocation } from './window-location.js';

registerSchemesSync();
// Before the app is ready: Chromium reads its features once (system-audio.ts). One switch, with any
// features it already had.
const features = enableFeaturesValue(app.commandLine.getSwitchValue('enable-features'));
app.commandLine.removeSwitch('enable-features');
app.commandLine.appendSwitch('enable-features', features);
// Tests (and portable setups) keep their data elsewhere.
if (process.env.KIKITORI_USER_DATA_DIR) app.setPath('userData', process.env.KIKITORI_USER_DATA_DIR);

const location = rendererLocation(app.getAppPath());
const isTrusted = trustedRendererUrl(location.url);
let mainWindow: BrowserWindow | null = null;
let services: MainServices | null = null;
let quitting = false;

function showWindow() {
  if (!mainWindow || mainWindow.isDestroyed()) {
    mainWindow = createMainWindow(location, isTrusted);
    mainWindow.on('closed', () => (mainWindow = null));
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

async function start() {
  hardenSession(isTrusted);
  handleAppProtocol(location.rendererDir);
  const locale = app.getLocale();
  services = await createMainServices({
    userDataDir: app.getPath('userData'),
    dialogs: electronDialogs(() => mainWindow),
    notifier: electronNotifier(() => showWindow()),
    secrets: electronSecretBox(),
    settings: createElectronSettingsStore(locale),
    emit: createEventSink(isTrusted),
    appVersion: app.getVersion(),
    platform: process.platform,
    locale,
  });
  registerIpcHandlers(services.handlers, isTrusted, (channel, error) => console.error(`[ipc] ${channel}:`, error));
  const current = services;
  handleMediaProtocol((id) => current.resolveMediaPath(id));
  await services.start();
  showWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);

  // Whatever web contents appear (none should besides the window), they get the same rules.
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!isTrusted(url)) event.preventDefault();
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (services) showWindow();
  });

  // Stop uploads, polling and the embedded server cleanly before the process goes.
  app.on('before-quit', (event) => {
    if (quitting || !services) return;
    event.preventDefault();
    quitting = true;
    void services
      .stop()
      .catch((error: unknown) => console.error('[main] stopping services failed:', error))
      .finally(() => app.quit());
  });

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('[main] Kikitori could not start:', error);
      app.exit(1);
    });
}
