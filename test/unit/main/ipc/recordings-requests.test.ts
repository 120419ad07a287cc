// Hostile input on the live-text channels (decision 0073): the renderer is treated as compromised.
import { describe, expect, it } from 'vitest';
import { AppFailure } from '../../../../src-main/app-failure.js';
import { validateRequest } from '../../../../src-main/ipc/request-validator.js';

function refusal(channel: Parameters<typeof validateRequest>[0], request: unknown): AppFailure {
  try {
    validateRequest(channel, request as never);
  } catch (error) {
    if (error instanceof AppFailure) return error;
    throw error;
  }
  throw new Error(`${channel} accepted ${JSON.stringify(request).slice(0, 200)}`);
}

const ID = '5b0d6c3e-8a53-4a8f-9a53-0f1f3f2c9d11';
/** A quarter second of 16 kHz PCM16, as the renderer sends it. */
const QUARTER_SECOND = Buffer.alloc(8000, 1).toString('base64');

describe('live text requests', () => {
  it('take a recording id and base64 PCM of at most two seconds', () => {
    expect(validateRequest('recordings:live-audio', { id: ID, data: QUARTER_SECOND })).toEqual({
      id: ID,
      data: QUARTER_SECOND,
    });
    const twoSeconds = Buffer.alloc(64_000, 1).toString('base64');
    expect(validateRequest('recordings:live-audio', { id: ID, data: twoSeconds })).toMatchObject({ id: ID });

    const hostile: [unknown, string][] = [
      [{ id: ID, data: Buffer.alloc(64_003, 1).toString('base64') }, 'data'],
      [{ id: ID, data: 'x'.repeat(50_000_000) }, 'data'],
      [{ id: ID, data: 'not base64!' }, 'data'],
      [{ id: ID, data: '' }, 'data'],
      [{ id: ID, data: 42 }, 'data'],
      [{ id: ID, data: { type: 'Buffer', data: [1, 2, 3] } }, 'data'],
      [{ id: '../../etc', data: QUARTER_SECOND }, 'id'],
      [{ id: '', data: QUARTER_SECOND }, 'id'],
      [{ id: ID, data: QUARTER_SECOND, offset: 0 }, 'offset'],
      [{ data: QUARTER_SECOND }, 'id'],
    ];
    for (const [request, field] of hostile) {
      const error = refusal('recordings:live-audio', request);
      expect(error.code).toBe('validation');
      expect(error.field).toBe(field);
    }
    expect(refusal('recordings:live-audio', null).code).toBe('validation');
    expect(refusal('recordings:live-audio', 'AAAA').code).toBe('validation');
  });

  it('a recording asks for live text with a language and a dictionary; nothing else rides along', () => {
    expect(
      validateRequest('recordings:start', { mimeType: 'audio/webm', live: { language: 'ja', dictionaryId: null } }),
    ).toEqual({ mimeType: 'audio/webm', live: { language: 'ja', dictionaryId: null } });
    expect(validateRequest('recordings:start', { mimeType: 'audio/webm' })).toEqual({ mimeType: 'audio/webm' });
    for (const live of [
      { language: 'en', dictionaryId: null, baseUrl: 'http://attacker.example' },
      { language: 'en', dictionaryId: null, apiKey: 'kk_x' },
      { language: 'english; drop', dictionaryId: null },
      { language: 'en', dictionaryId: '../other-team' },
      { language: 'en' },
      'http://attacker.example',
    ]) {
      expect(refusal('recordings:start', { mimeType: 'audio/webm', live }).code).toBe('validation');
    }
  });
});
