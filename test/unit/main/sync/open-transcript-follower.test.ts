// The follower's schedule (decision 0056), with fake timers and a stand-in for the transcripts (what a check
// finds is not what this test is about; test/integration/main/sync has the real server): checks every
// followMs, doubling to followMaxMs while nothing changes, back after a change; none while offline or
// editing; at once when the server answers again or the editor closes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventSink } from '../../../../src-main/event-sink.js';
import { OpenTranscriptFollower } from '../../../../src-main/sync/open-transcript-follower.js';
import type { TranscriptService } from '../../../../src-main/transcripts/transcript-service.js';

let checks: number[];
let changes: boolean[];
let online: boolean;
let emitted: string[][];
let follower: OpenTranscriptFollower;
const start = 1_000_000;

beforeEach(() => {
  vi.useFakeTimers({ now: start });
  checks = [];
  changes = [];
  online = true;
  emitted = [];
  const transcripts = {
    followLatest: async () => {
      checks.push(Date.now() - start);
      return changes.shift() ?? false;
    },
  } as unknown as TranscriptService;
  const emit: EventSink = (event, payload) => {
    if (event === 'transcripts:changed') emitted.push((payload as { ids: string[] }).ids);
  };
  follower = new OpenTranscriptFollower({
    transcripts,
    emit,
    isOnline: () => online,
    intervals: { followMs: 2_000, followMaxMs: 8_000 },
  });
});
afterEach(async () => {
  await follower.stop();
  vi.useRealTimers();
});

describe('the follower', () => {
  it('backs off while nothing changes, and comes back to the first interval after a change', async () => {
    follower.follow({ id: 't1', editing: false });
    changes = [false, false, false, false, true, false];
    await vi.advanceTimersByTimeAsync(2_000 + 4_000 + 8_000 + 8_000 + 8_000 + 2_000);
    expect(checks).toEqual([2_000, 6_000, 14_000, 22_000, 30_000, 32_000]);
    expect(emitted).toEqual([['t1']]);
  });

  it('asks nothing while offline or editing, or once the transcript is closed; resumes at once when told', async () => {
    online = false;
    follower.follow({ id: 't1', editing: false });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(checks).toEqual([]);
    online = true;
    follower.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(checks).toEqual([60_000]);

    follower.follow({ id: 't1', editing: true });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(checks).toEqual([60_000]);
    follower.follow({ id: 't1', editing: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(checks).toEqual([60_000, 120_000]);

    follower.follow(null);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(checks).toEqual([60_000, 120_000]);
  });

  it('starts again from the first interval for another transcript', async () => {
    follower.follow({ id: 't1', editing: false });
    await vi.advanceTimersByTimeAsync(2_000 + 4_000);
    follower.follow({ id: 't2', editing: false });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(checks).toEqual([2_000, 6_000, 8_000]);
  });
});
