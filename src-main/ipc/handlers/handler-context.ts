// What domain handlers are given: the active profile's session and the app-wide services.
import type { ConnectionStatus } from '../../../src-shared/ipc-contract.js';
import type { Dialogs } from '../../host-capabilities.js';
import type { ProfileSession } from '../../profile-session.js';
import type { SettingsService } from '../../settings/settings-service.js';
import type { FileHandles } from '../../uploads/file-handles.js';
import type { HandlerMap } from '../handler-registry.js';

export interface HandlerContext {
  /** The active profile's session. */
  session(): ProfileSession;
  settings: SettingsService;
  dialogs: Dialogs;
  /** The files and folders the user chose, behind the handles the renderer holds. */
  files: FileHandles;
  /** Switches the active profile; resolves with the new connection status. */
  activateProfile(id: string): Promise<ConnectionStatus>;
  /** Forgets a profile and its cache (switching to the embedded server first if it was active). */
  removeProfile(id: string): Promise<void>;
  app: { version: string; platform: string; locale: string };
}

export type DomainHandlers<P extends string> = Pick<HandlerMap, Extract<keyof HandlerMap, `${P}:${string}`>>;
