// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LanguagePicker, languageHint } from '../../../../src-renderer/features/languages/language-picker';
import { translate, type MessageKey } from '../../../../src-renderer/i18n/messages';
import { UploadOptionsForm } from '../../../../src-renderer/features/library/upload-options-form';
import { useLanguagesStore } from '../../../../src-renderer/stores/languages-store';
import { DEFAULT_UPLOAD_OPTIONS, useUploadsStore } from '../../../../src-renderer/stores/uploads-store';
import type { ServingEngine } from '../../../../src-shared/ipc-contract';
import { installFakeApi, setUiLanguage } from '../fake-api';

const WHISPER: ServingEngine = {
  engine: 'whisper',
  detectsLanguage: true,
  languages: ['en', 'ja', 'es', 'fr', 'de', 'ko'],
};
const POCKETSPHINX: ServingEngine = { engine: 'pocketsphinx', detectsLanguage: false, languages: ['en'] };

let changes: string[][];
function Picker({ serving, initial = [] }: { serving: ServingEngine | null; initial?: string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  return (
    <>
      <label htmlFor="lang">Language</label>
      <LanguagePicker
        id="lang"
        value={value}
        serving={serving}
        onChange={(codes) => {
          changes.push(codes);
          setValue(codes);
        }}
      />
    </>
  );
}

const input = () => screen.getByRole('combobox', { name: 'Language' });
const options = () => within(screen.getByRole('listbox')).queryAllByRole('option');
const optionNames = () => options().map((o) => o.querySelector('.language-option-name')?.textContent);
const chips = () => [...document.querySelectorAll('.language-chip[data-code]')].map((c) => c.getAttribute('data-code'));
const type = (text: string) => fireEvent.change(input(), { target: { value: text } });
const key = (k: string) => fireEvent.keyDown(input(), { key: k });

beforeEach(() => {
  changes = [];
  setUiLanguage('en');
  installFakeApi({});
});
afterEach(cleanup);

describe('LanguagePicker', () => {
  it('finds a language by its English name, Japanese name or code, and shows the code under the name', () => {
    render(<Picker serving={null} />);
    type('japan');
    expect(optionNames()[0]).toBe('Japanese');
    expect(options()[0]!.querySelector('.language-code')?.textContent).toBe('ja');
    type('スペイン');
    expect(optionNames()[0]).toBe('Spanish');
    type('ko');
    expect(optionNames()[0]).toBe('Korean');
    type('qqqq');
    expect(options()).toHaveLength(0);
    expect(screen.getByText('No language matches “qqqq”.')).toBeTruthy();
  });

  it('names languages in Japanese in the Japanese UI, and still finds them by English name', () => {
    setUiLanguage('ja');
    render(<Picker serving={null} />);
    type('spanish');
    expect(optionNames()[0]).toBe('スペイン語');
    expect(options()[0]!.querySelector('.language-code')?.textContent).toBe('es · Spanish');
    type('にほん');
    expect(optionNames()).toContain('日本語');
  });

  it('chooses several with the keyboard, shows them as chips, and removes them by button or Backspace', () => {
    render(<Picker serving={WHISPER} />);
    input().focus();
    type('japanese');
    key('Enter');
    type('fr');
    key('Enter');
    expect(chips()).toEqual(['ja', 'fr']);
    expect(changes.at(-1)).toEqual(['ja', 'fr']);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Japanese' }));
    expect(chips()).toEqual(['fr']);
    key('Backspace');
    expect(chips()).toEqual([]);
    expect(changes.at(-1)).toEqual([]);
  });

  it('moves with the arrows, marks the active option, toggles with Enter and closes with Escape', () => {
    render(<Picker serving={WHISPER} />);
    fireEvent.focus(input());
    expect(input().getAttribute('aria-expanded')).toBe('true');
    // The first row is "Detect automatically", selected while nothing is chosen.
    expect(options()[0]!.textContent).toContain('Detect automatically');
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    key('ArrowDown');
    const active = document.getElementById(input().getAttribute('aria-activedescendant')!)!;
    expect(active).toBe(options()[1]);
    key('Enter');
    const code = active.getAttribute('data-code')!;
    expect(chips()).toEqual([code]);
    expect(options()[0]!.getAttribute('aria-selected')).toBe('false');
    // Choosing "Detect automatically" clears the languages again.
    key('Home');
    key('Enter');
    expect(chips()).toEqual([]);
    key('Escape');
    expect(input().getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('listbox', { hidden: true }).hidden).toBe(true);
  });

  it('offers detection only when the engine detects, and marks languages it does not know as needing a speech model', () => {
    render(<Picker serving={POCKETSPHINX} />);
    fireEvent.focus(input());
    expect(optionNames()[0]).toBe('English');
    expect(screen.queryByText('Detect automatically', { selector: '[role="option"] *' })).toBeNull();
    expect(screen.getByText('No language chosen')).toBeTruthy();
    type('japanese');
    const japanese = options()[0]!;
    expect(japanese.getAttribute('aria-disabled')).toBe('true');
    expect(japanese.textContent).toContain('needs a speech model');
    key('Enter');
    fireEvent.click(japanese);
    expect(chips()).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('with an unknown server, offers every language and no detection', () => {
    render(<Picker serving={null} />);
    fireEvent.focus(input());
    expect(options().length).toBeGreaterThan(150);
    expect(options().every((o) => o.getAttribute('aria-disabled') === null)).toBe(true);
    expect(optionNames()).not.toContain('Detect automatically');
  });
});

describe('languageHint', () => {
  it('inside Settings points at the Speech recognition section above, not at Settings', () => {
    const t = (language: 'en' | 'ja') => (key: MessageKey, params?: Record<string, string | number>) =>
      translate(language, key, params);
    expect(languageHint(t('en'), POCKETSPHINX, 'en', 'settings')).toBe(
      'The built-in recognizer understands English only. For other languages, download a speech model under Speech recognition above.',
    );
    expect(languageHint(t('ja'), POCKETSPHINX, 'ja', 'settings')).toBe(
      '内蔵の音声認識は英語のみに対応しています。他の言語には、上の「音声認識」で音声モデルをダウンロードしてください。',
    );
    expect(languageHint(t('en'), POCKETSPHINX, 'en')).toContain('in Settings → Speech recognition.');
  });
});

describe('UploadOptionsForm languages', () => {
  beforeEach(() => {
    useUploadsStore.setState({ ...useUploadsStore.getInitialState(), options: DEFAULT_UPLOAD_OPTIONS }, true);
    useLanguagesStore.setState({ serving: undefined });
  });

  const openForm = async () => {
    render(<UploadOptionsForm />);
    await act(async () => {
      const details = document.querySelector('details.upload-options') as HTMLDetailsElement;
      details.open = true;
      details.dispatchEvent(new Event('toggle'));
      await useLanguagesStore.getState().load();
    });
  };

  it('says which language the built-in engine uses when it cannot detect, and sends the codes chosen', async () => {
    installFakeApi({
      'dictionaries:list': () => [],
      'languages:serving': () => ({ default: POCKETSPHINX, 'diarization-high': POCKETSPHINX }),
    });
    await openForm();
    expect(screen.getByTestId('language-hint').textContent).toBe(
      'The built-in recognizer understands English only. For other languages, download a speech model in Settings → Speech recognition.',
    );
    fireEvent.change(screen.getByTestId('language-input'), { target: { value: 'english' } });
    fireEvent.keyDown(screen.getByTestId('language-input'), { key: 'Enter' });
    expect(useUploadsStore.getState().options.language).toBe('en');
  });

  it('keeps several languages as the API’s array, and offers detection with whisper', async () => {
    installFakeApi({
      'dictionaries:list': () => [],
      'languages:serving': () => ({ default: WHISPER, 'diarization-high': POCKETSPHINX }),
    });
    await openForm();
    expect(screen.getByTestId('language-hint').textContent).toMatch(/detected automatically/);
    for (const name of ['japanese', 'english']) {
      fireEvent.change(screen.getByTestId('language-input'), { target: { value: name } });
      fireEvent.keyDown(screen.getByTestId('language-input'), { key: 'Enter' });
    }
    expect(useUploadsStore.getState().options.language).toEqual(['ja', 'en']);
  });
});
