// @vitest-environment happy-dom
// Issue 27, item 7: the translation target is chosen by language name in the UI's language, from what the
// server translates offline and, marked so, what needs its language model; without one, that group says
// so and cannot be chosen.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranslationPanel } from '../../../../src-renderer/features/analysis/translation-panel';
import { useAnalysisStore } from '../../../../src-renderer/stores/analysis-store';
import type { TranslationTargets } from '../../../../src-shared/ipc-contract';
import { installFakeApi, setUiLanguage, type FakeApi } from '../fake-api';

const OFFLINE_ONLY: TranslationTargets = { source: 'en', offline: ['es', 'ca', 'eo'], llm: [], llmAnyLanguage: false };
const WITH_LLM: TranslationTargets = { source: 'en', offline: ['es'], llm: [], llmAnyLanguage: true };

let fake: FakeApi;
function setup(targets: TranslationTargets) {
  fake = installFakeApi({
    'analysis:get': () => null,
    'analysis:translation-targets': () => targets,
    'analysis:request': ({ language }) => ({
      kind: 'translation',
      status: 'IN_PROGRESS',
      language: language ?? null,
      error: null,
      errorCode: null,
      summary: null,
      emotions: null,
      translation: null,
      updatedAt: new Date().toISOString(),
      outdated: false,
    }),
  });
}

const select = () => screen.getByRole<HTMLSelectElement>('combobox', { name: /Target language|翻訳先の言語/ });
const group = (label: RegExp) =>
  [...select().querySelectorAll('optgroup')].find((g) => label.test(g.label)) as HTMLOptGroupElement;
const names = (g: HTMLOptGroupElement) => [...g.querySelectorAll('option')].map((o) => o.textContent);

beforeEach(() => {
  useAnalysisStore.setState({ slots: {}, targets: {} });
  setUiLanguage('en');
});
afterEach(cleanup);

describe('translation target by language name', () => {
  it('lists the offline pairs by name, sorted, and says the other languages need a model the server lacks', async () => {
    setup(OFFLINE_ONLY);
    render(<TranslationPanel id="t1" />);
    await waitFor(() => expect(select().disabled).toBe(false));
    expect(fake.calls.some((c) => c.channel === 'analysis:translation-targets')).toBe(true);
    expect(screen.queryByPlaceholderText('ja')).toBeNull();
    const offline = group(/works offline/);
    expect(names(offline)).toEqual(['Catalan', 'Esperanto', 'Spanish']);
    const llm = group(/language model/);
    expect(names(llm)).toEqual(['Not set up on this server']);
    expect(within(llm).getByRole('option').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('translation-target-hint').textContent).toMatch(/has none set up/);
  });

  it('asks for the language chosen by name, by its code', async () => {
    setup(OFFLINE_ONLY);
    render(<TranslationPanel id="t1" />);
    await waitFor(() => expect(select().disabled).toBe(false));
    expect(screen.getByTestId('analysis-request-translation').hasAttribute('disabled')).toBe(true);
    fireEvent.change(select(), { target: { value: 'es' } });
    expect(select().selectedOptions[0]!.textContent).toBe('Spanish');
    fireEvent.click(screen.getByTestId('analysis-request-translation'));
    await waitFor(() =>
      expect(fake.calls.find((c) => c.channel === 'analysis:request')?.request).toEqual({
        id: 't1',
        kind: 'translation',
        language: 'es',
      }),
    );
  });

  it('lists every other language under the language model when the server has one, marked so', async () => {
    setup(WITH_LLM);
    render(<TranslationPanel id="t1" />);
    await waitFor(() => expect(select().disabled).toBe(false));
    expect(names(group(/works offline/))).toEqual(['Spanish']);
    const llm = names(group(/Needs the server's language model/));
    expect(llm).toContain('Japanese');
    expect(llm).toContain('French');
    // Neither the transcript's own language nor an offline one twice.
    expect(llm).not.toContain('English');
    expect(llm).not.toContain('Spanish');
    expect(screen.getByTestId('translation-target-hint').textContent).toMatch(/sent to the language-model service/);
  });

  it('says why the list is empty when the server cannot be asked, and offers nothing to choose', async () => {
    setup(OFFLINE_ONLY);
    fake.handlers['analysis:translation-targets'] = () => ({
      ok: false,
      error: { code: 'offline', message: 'The server cannot be reached.' },
    });
    render(<TranslationPanel id="t1" />);
    await waitFor(() => expect(screen.getByTestId('translation-target-hint').textContent).not.toBe(''));
    expect(select().disabled).toBe(true);
    expect(select().options[0]!.textContent).toBe('Choose a language');
    expect(select().querySelectorAll('optgroup')).toHaveLength(0);
    expect(screen.getByTestId('analysis-request-translation').hasAttribute('disabled')).toBe(true);
  });

  it('names the languages and the groups in Japanese in the Japanese interface', async () => {
    setUiLanguage('ja');
    setup(WITH_LLM);
    render(<TranslationPanel id="t1" />);
    await waitFor(() => expect(select().disabled).toBe(false));
    expect(names(group(/オフライン/))).toEqual(['スペイン語']);
    const llm = names(group(/サーバーの言語モデルが必要/));
    expect(llm).toContain('日本語');
    expect(llm).toContain('フランス語');
  });
});
