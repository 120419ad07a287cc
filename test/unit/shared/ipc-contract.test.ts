import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, IPC_EVENTS, PRELOAD_CHANNELS } from '../../../src-shared/ipc-contract.js';
import { IPC_REQUESTS } from '../../../src-shared/ipc/requests.js';

// The compiler holds IPC_CHANNELS and IPC_REQUESTS to the keys of IpcResponses; this holds them to each
// other at run time too, where vitest does not type-check (a channel with a schema but no name would
// have no handler registered in main and no method in the preload).
describe('the IPC contract', () => {
  it('names every channel that has a request schema, and only those, once each', () => {
    expect([...IPC_CHANNELS].sort()).toEqual(Object.keys(IPC_REQUESTS).sort());
    expect(new Set(IPC_CHANNELS).size).toBe(IPC_CHANNELS.length);
  });

  it('names channels and events as domain:verb, and preload-only channels among the channels', () => {
    for (const name of [...IPC_CHANNELS, ...IPC_EVENTS]) expect(name).toMatch(/^[a-z]+:[a-z]+(-[a-z]+)*$/);
    for (const channel of PRELOAD_CHANNELS) expect(IPC_CHANNELS).toContain(channel);
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(IPC_CHANNELS)).toBe(true);
    expect(Object.isFrozen(IPC_EVENTS)).toBe(true);
  });
});
