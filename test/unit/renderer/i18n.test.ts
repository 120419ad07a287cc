import { describe, expect, it } from 'vitest';
import { en, ja, joinSentences, translate } from '../../../src-renderer/i18n/messages';

describe('i18n', () => {
  it('has a Japanese string for every English key, with the same parameters', () => {
    expect(Object.keys(ja).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(params(ja[key]), key).toEqual(params(en[key]));
      expect(ja[key].length, key).toBeGreaterThan(0);
    }
  });

  it('joins sentences with a space in English and none in Japanese', () => {
    expect(joinSentences('en', 'The speech models could not be loaded.', 'Try again.')).toBe(
      'The speech models could not be loaded. Try again.',
    );
    expect(joinSentences('ja', '音声モデルを読み込めませんでした。', 'サーバーに接続できません。')).toBe(
      '音声モデルを読み込めませんでした。サーバーに接続できません。',
    );
    expect(joinSentences('ja', '保存しました。', '')).toBe('保存しました。');
  });

  it('puts no space between a name and Japanese particles', () => {
    expect(translate('ja', 'settings.profile.activate', { name: 'このコンピューター' })).toBe(
      '「このコンピューター」を使う',
    );
  });

  it('fills parameters and leaves unknown ones visible', () => {
    expect(translate('en', 'connection.pending', { count: 3 })).toBe('3 processing');
    expect(translate('ja', 'connection.pending', { count: 3 })).toBe('処理中 3 件');
    expect(translate('en', 'library.search.none')).toBe('No matches for “{query}”.');
  });
});
