// The main window and the security rules every page of the app lives under: context isolation,
// sandbox, no Node in the page, a strict CSP, no new windows, no navigation away, no permission but the
// microphone for the app's own page (media-permission.ts).
import { BrowserWindow, desktopCapturer, session, shell, type Session } from 'electron';
import { CONTENT_SECURITY_POLICY } from './content-security-policy.js';
import type { TrustedUrl } from './ipc/trusted-sender.js';
import { permissionGranted } from './media-permission.js';
import { grantsSystemAudio } from './system-audio.js';
import type { RendererLocation } from './window-location.js';

/** Applies once per session: CSP on every response; the microphone and the computer's sound for the app's own page, every other permission refused. */
export function hardenSession(isTrusted: TrustedUrl, target: Session = session.defaultSession): void {
  target.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  target.setPermissionRequestHandler((contents, permission, callback, details) => {
    const requestingUrl = details.requestingUrl || contents.getURL();
    const mediaTypes = permission === 'media' ? ((details as { mediaTypes?: string[] }).mediaTypes ?? []) : undefined;
    callback(permissionGranted({ permission, requestingUrl, mediaTypes }, isTrusted));
  });
  target.setPermissionCheckHandler((contents, permission, _origin, details) => {
    const requestingUrl = details.requestingUrl || contents?.getURL() || '';
    return permissionGranted({ permission, requestingUrl, mediaType: details.mediaType ?? 'unknown' }, isTrusted);
  });
  // The computer's sound (decision 0082): the first screen's loopback audio, for the app's own page only.
  // The page stops the screen's video at once; no picker is shown, since nothing of the screen is kept.
  target.setDisplayMediaRequestHandler(
    (request, callback) => {
      const frameUrl = request.frame?.url ?? '';
      if (!grantsSystemAudio({ frameUrl, audioRequested: request.audioRequested }, isTrusted)) return callback({});
      desktopCapturer
        .getSources({ types: ['screen'] })
        .then(([screen]) => callback(screen ? { video: screen, audio: 'loopback' } : {}))
        .catch(() => callback({}));
    },
    { useSystemPicker: false },
  );
}

export function createMainWindow(location: RendererLocation, isTrusted: (url: string) => boolean): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    show: false,
    title: 'Kikitori',
    backgroundColor: '#f7f7f5',
    webPreferences: {
      preload: location.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      // The bundle's compiled code is kept from the first start on, not only after Chromium's "seen twice".
      v8CacheOptions: 'bypassHeatCheck',
    },
  });
  const contents = window.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    // Links to the web open in the user's browser; the app itself never opens windows.
    if (/^https?:\/\//.test(url) && !isTrusted(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (!isTrusted(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isTrusted(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  window.once('ready-to-show', () => window.show());
  void window.loadURL(location.url);
  return window;
}
