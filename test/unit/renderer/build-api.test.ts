// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, apiPathOf } from '../../../src-shared/ipc-contract';
import { installFakeApi } from './fake-api';

describe('buildKikitoriApi', () => {
  it('exposes one named method per channel, grouped by domain, and nothing generic', () => {
    const { api } = installFakeApi();
    for (const channel of IPC_CHANNELS) {
      const [domain, method] = apiPathOf(channel);
      expect(typeof (api as unknown as Record<string, Record<string, unknown>>)[domain]![method]).toBe('function');
    }
    expect((api as unknown as Record<string, unknown>).invoke).toBeUndefined();
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.isFrozen(api.transcripts)).toBe(true);
  });

  it('sends the single request argument to its channel and passes errors through as data', async () => {
    const fake = installFakeApi({
      'transcripts:rename-speaker': ({ id }) => ({ ok: false, error: { code: 'not-found', message: `no ${id}` } }),
    });
    const result = await fake.api.transcripts.renameSpeaker({ id: 't1', speaker: 'SPEAKER_0', name: 'Ann' });
    expect(result).toEqual({ ok: false, error: { code: 'not-found', message: 'no t1' } });
    expect(fake.calls).toEqual([{ channel: 'transcripts:rename-speaker', request: { id: 't1', speaker: 'SPEAKER_0', name: 'Ann' } }]);
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
