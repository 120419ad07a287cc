// @vitest-environment happy-dom
// What the window tells main to follow (decision 0056): the open transcript once loaded, while the window is
// visible, and whether the user is typing in one of its editors.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followOpenTranscript } from '../../../../src-renderer/lib/follow-open-transcript';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import type { IpcRequest, TranscriptDetail } from '../../../../src-shared/ipc-contract';
import { installFakeApi, summary } from '../fake-api';

const detailOf = (id: string): TranscriptDetail => ({
  summary: summary(id),
  document: null,
  speakerNames: {},
  unsyncedEdits: false,
  conflict: null,
});

const setVisibility = (state: 'visible' | 'hidden') => {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
};
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let followed: Array<IpcRequest<'transcripts:follow'>>;
let refuse = false;
let stop: () => void;

beforeEach(() => {
  useTranscriptStore.setState(useTranscriptStore.getInitialState(), true);
  followed = [];
  refuse = false;
  installFakeApi({
    'transcripts:get': ({ id }) => detailOf(id),
    'transcripts:follow': (request) => {
      followed.push(request);
      return refuse ? { ok: false, error: { code: 'not-found', message: 'gone' } } : undefined;
    },
  });
  setVisibility('visible');
  stop = followOpenTranscript();
});
afterEach(() => {
  stop();
  document.body.innerHTML = '';
});

describe('following the open transcript', () => {
  it('follows the transcript once loaded, stops when it closes or the window hides, and again when shown', async () => {
    await useTranscriptStore.getState().open('a');
    setVisibility('hidden');
    setVisibility('visible');
    useTranscriptStore.getState().close();
    await settle();
    expect(followed).toEqual([
      { id: null, editing: false },
      { id: 'a', editing: false },
      { id: null, editing: false },
      { id: 'a', editing: false },
      { id: null, editing: false },
    ]);
  });

  it("says when the user types in one of the transcript's editors, and not elsewhere", async () => {
    await useTranscriptStore.getState().open('a');
    document.body.innerHTML =
      '<section class="transcript-pane"><div class="segment-editor"><textarea id="segment"></textarea>' +
      '<button id="save">Save</button></div><button id="play">Play</button></section><input id="search" />';
    for (const element of ['segment', 'save', 'play', 'segment', 'search']) {
      document.getElementById(element)!.focus();
      await settle();
    }
    expect(followed.slice(1)).toEqual([
      { id: 'a', editing: false },
      { id: 'a', editing: true },
      { id: 'a', editing: false },
      { id: 'a', editing: true },
      { id: 'a', editing: false },
    ]);
  });

  it('asks again on the next change after main refused', async () => {
    refuse = true;
    await useTranscriptStore.getState().open('a');
    refuse = false;
    await settle();
    setVisibility('visible');
    await settle();
    expect(followed.slice(1)).toEqual([
      { id: 'a', editing: false },
      { id: 'a', editing: false },
    ]);
  });
});
