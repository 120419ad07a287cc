// System notifications (decision 0068: main's own messages in the UI's language). The services that notice
// something say what happened as a closed event; the text is made here, once, in the language the user
// chose, when it is shown. A failure's reason is not quoted: the app shows it, in the UI's language, when
// the transcript is opened.
import type { UiLanguage } from '../src-shared/ipc-contract.js';
import { assertNever } from '../src-shared/assert-never.js';
import type { UserNotification } from './host-capabilities.js';

export interface NotificationEvent {
  kind: 'transcription-finished' | 'transcription-failed' | 'corrections-not-sent';
  /** The transcription's name as the library shows it; null when it is not cached. */
  name: string | null;
  transcriptionId: string;
}

const TEXT = {
  en: {
    finishedTitle: 'Transcription finished',
    finished: (name: string) => `“${name}” is ready.`,
    failedTitle: 'Transcription failed',
    failed: (name: string) => `“${name}” could not be transcribed. Open it to see why.`,
    notSentTitle: 'Corrections not sent',
    notSent: (name: string) => `Your corrections to “${name}” could not be saved on the server. Open it to see why.`,
    unnamed: 'A transcription',
  },
  ja: {
    finishedTitle: '文字起こしが完了しました',
    finished: (name: string) => `「${name}」の準備ができました。`,
    failedTitle: '文字起こしに失敗しました',
    failed: (name: string) => `「${name}」を文字起こしできませんでした。開くと理由が表示されます。`,
    notSentTitle: '修正を送信できませんでした',
    notSent: (name: string) => `「${name}」への修正をサーバーに保存できませんでした。開くと理由が表示されます。`,
    unnamed: '文字起こし',
  },
} satisfies Record<UiLanguage, Record<string, string | ((name: string) => string)>>;

export function notificationText(event: NotificationEvent, language: UiLanguage): UserNotification {
  const text = TEXT[language];
  const name = event.name ?? text.unnamed;
  const { transcriptionId } = event;
  switch (event.kind) {
    case 'transcription-finished':
      return { title: text.finishedTitle, body: text.finished(name), transcriptionId };
    case 'transcription-failed':
      return { title: text.failedTitle, body: text.failed(name), transcriptionId };
    case 'corrections-not-sent':
      return { title: text.notSentTitle, body: text.notSent(name), transcriptionId };
    default:
      return assertNever(event.kind);
  }
}
