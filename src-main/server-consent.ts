// The words of main's "send to this server?" dialog (decision 0046), in the UI's language. They live in
// main, not in the renderer's catalogue, because the dialog must not depend on anything the page says.
import type { UiLanguage } from '../src-shared/ipc-contract.js';
import type { ServerToConfirm } from './host-capabilities.js';

export interface ServerConsentText {
  title: string;
  message: string;
  detail: string;
  /** [go ahead, cancel]: cancel is the default, so Enter does not send anything. */
  buttons: [string, string];
}

export function serverConsentText(server: ServerToConfirm, language: UiLanguage): ServerConsentText {
  if (language === 'ja') {
    return {
      title: 'サーバーの切り替え',
      message: `「${server.name}」に切り替えますか？`,
      detail: `このサーバーに API キーを送り、これから文字起こしする録音を送ります:\n${server.baseUrl}\n\n自分で追加したサーバーでなければ「キャンセル」を選んでください。`,
      buttons: ['切り替える', 'キャンセル'],
    };
  }
  return {
    title: 'Switch server',
    message: `Switch to “${server.name}”?`,
    detail: `Kikitori will send your API key, and the recordings you transcribe from now on, to this server:\n${server.baseUrl}\n\nIf you did not add this server yourself, choose Cancel.`,
    buttons: ['Switch', 'Cancel'],
  };
}
