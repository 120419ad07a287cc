// System notifications are written in the UI's language (decision 0068), from closed events.
import { describe, expect, it } from 'vitest';
import { notificationText } from '../../../src-main/notifications.js';

describe('notificationText', () => {
  it('says a transcription finished or failed in English and in Japanese, naming it', () => {
    const finished = { kind: 'transcription-finished', name: 'budget.wav', transcriptionId: 't1' } as const;
    expect(notificationText(finished, 'en')).toEqual({
      title: 'Transcription finished',
      body: '“budget.wav” is ready.',
      transcriptionId: 't1',
    });
    expect(notificationText(finished, 'ja')).toEqual({
      title: '文字起こしが完了しました',
      body: '「budget.wav」の準備ができました。',
      transcriptionId: 't1',
    });
    const failed = { kind: 'transcription-failed', name: 'broken.wav', transcriptionId: 't2' } as const;
    expect(notificationText(failed, 'ja')).toMatchObject({
      title: '文字起こしに失敗しました',
      body: '「broken.wav」を文字起こしできませんでした。開くと理由が表示されます。',
    });
    expect(notificationText(failed, 'en').body).toBe('“broken.wav” could not be transcribed. Open it to see why.');
  });

  it('names a transcription that is not cached generically, and corrections that were not sent', () => {
    const event = { kind: 'corrections-not-sent', name: null, transcriptionId: 't3' } as const;
    expect(notificationText(event, 'en')).toMatchObject({
      title: 'Corrections not sent',
      body: 'Your corrections to “A transcription” could not be saved on the server. Open it to see why.',
    });
    expect(notificationText(event, 'ja').title).toBe('修正を送信できませんでした');
    expect(notificationText(event, 'ja').body).toContain('「文字起こし」');
  });
});
