import { describe, expect, it } from 'vitest';
import { languageCode } from '../../../../../src-server/engines/speech/openai-remote-engine.js';

describe("languageCode of a remote service's verbose_json", () => {
  it("maps whisper's language names (OpenAI) and codes (other servers) to ISO 639-1", () => {
    expect(['japanese', 'English', 'ja', 'en-US', 'chinese', 'myanmar', 'javanese'].map(languageCode)).toEqual([
      'ja',
      'en',
      'ja',
      'en',
      'zh',
      'my',
      'jv',
    ]);
  });

  it('says nothing for what names no known language', () => {
    expect([' ', 'klingon', null, 42].map(languageCode)).toEqual([null, null, null, null]);
  });
});
