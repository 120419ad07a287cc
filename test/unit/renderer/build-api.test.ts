// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, PRELOAD_CHANNELS, apiPathOf } from '../../../src-shared/ipc-contract';
import { installFakeApi } from './fake-api';

describe('buildKikitoriApi', () => {
  it('exposes one named method per channel, grouped by domain, and nothing generic', () => {
    const { api } = installFakeApi();
    const preloadOnly: readonly string[] = PRELOAD_CHANNELS;
    for (const channel of IPC_CHANNELS.filter((c) => !preloadOnly.includes(c))) {
      const [domain, method] = apiPathOf(channel);
      expect(typeof (api as unknown as Record<string, Record<string, unknown>>)[domain]![method]).toBe('function');
    }
    expect((api as unknown as Record<string, unknown>).invoke).toBeUndefined();
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.isFrozen(api.transcripts)).toBe(true);
  });

  it('gives the page no way to hand main a path: dropped files go through `files.offer`, which takes File objects', () => {
    const { api } = installFakeApi();
    const files = api.files as unknown as Record<string, unknown>;
    expect(Object.keys(files)).toEqual(['offer']);
    // 'files:offer-dropped' is the preload's own channel: the page's API has no method for it.
    for (const channel of PRELOAD_CHANNELS) expect(files[apiPathOf(channel)[1]]).toBeUndefined();
    expect(JSON.stringify(Object.keys(api))).not.toContain('offerDropped');
  });

  it('sends the single request argument to its channel and passes errors through as data', async () => {
    const fake = installFakeApi({
      'transcripts:rename-speaker': ({ id }) => ({ ok: false, error: { code: 'not-found', message: `no ${id}` } }),
    });
    const result = await fake.api.transcripts.renameSpeaker({ id: 't1', speaker: 'SPEAKER_0', name: 'Ann' });
    expect(result).toEqual({ ok: false, error: { code: 'not-found', message: 'no t1' } });
    expect(fake.calls).toEqual([
      { channel: 'transcripts:rename-speaker', request: { id: 't1', speaker: 'SPEAKER_0', name: 'Ann' } },
    ]);
  });

  it('delivers events to subscribers until they unsubscribe, and refuses unknown events', () => {
    const fake = installFakeApi();
    const seen: unknown[] = [];
    const off = fake.api.on('transcripts:changed', (payload) => seen.push(payload));
    fake.emit('transcripts:changed', { ids: ['a'] });
    off();
    fake.emit('transcripts:changed', { ids: ['b'] });
    expect(seen).toEqual([{ ids: ['a'] }]);
    expect(() => fake.api.on('nope:event' as never, () => {})).toThrow(/Unknown event/);
  });
});
