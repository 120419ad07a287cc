// The language list under Chromium's ICU, which has no Japanese name for about fifty languages
// (Intl.DisplayNames gives undefined for them there). The runtime's ICU data is the boundary replaced.
import { afterEach, describe, expect, it, vi } from 'vitest';

// What Debian's chromium answered for `new Intl.DisplayNames(['ja'], { fallback: 'none' }).of(code)`.
const CHROMIUM_LACKS = (
  'aa ab ae av ba bi bo ce ch cr cu cv dz ff fj gv ho hz ie ii ik io iu kg ki kj kl kr ks kv kw li lu mh na nd ng ' +
  'nr nv oj os pi rn sc se sg ss ty ve vo za'
).split(' ');

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

async function languagesUnderChromium() {
  const Real = Intl.DisplayNames;
  class TrimmedDisplayNames extends Real {
    private readonly japanese: boolean;
    constructor(locales: string[], options: Intl.DisplayNamesOptions) {
      super(locales, options);
      this.japanese = this.resolvedOptions().locale.startsWith('ja');
    }
    override of(code: string): string | undefined {
      return this.japanese && CHROMIUM_LACKS.includes(code) ? undefined : super.of(code);
    }
  }
  vi.stubGlobal('Intl', { ...Intl, DisplayNames: TrimmedDisplayNames, Collator: Intl.Collator });
  vi.resetModules();
  return import('../../../src-shared/languages.js');
}

describe('languageOptions in Japanese under a trimmed ICU', () => {
  it('names every language in Japanese, sorts by the Japanese collator, and lists each once', async () => {
    const { languageOptions } = await languagesUnderChromium();
    const ja = languageOptions('ja');
    expect(ja.filter((o) => /[A-Za-z]/.test(o.name)).map((o) => `${o.code}: ${o.name}`)).toEqual([]);
    expect(ja.find((o) => o.code === 'aa')?.name).toBe('アファル語');
    const names = ja.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n === 'アカン語')).toHaveLength(1);
    expect(ja.find((o) => o.name === 'アカン語')?.code).toBe('ak');
    const codes = ja.map((o) => o.code);
    expect(new Set(codes).size).toBe(codes.length);
    const collator = new Intl.Collator(['ja']);
    expect([...names].sort(collator.compare)).toEqual(names);
  });

  it('lists Akan once in English too', async () => {
    const { languageOptions } = await languagesUnderChromium();
    expect(
      languageOptions('en')
        .filter((o) => o.name === 'Akan')
        .map((o) => o.code),
    ).toEqual(['ak']);
  });
});
