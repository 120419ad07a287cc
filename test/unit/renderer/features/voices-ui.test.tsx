// @vitest-environment happy-dom
// The voice library in the renderer (decision 0075): Settings → Voices and "This is…".
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptDetail, VoiceDetail, VoiceSummary } from '../../../../src-shared/ipc-contract';
import { useNavigationStore } from '../../../../src-renderer/stores/navigation-store';
import { VoicesSection } from '../../../../src-renderer/features/voices/voices-section';
import { ThisIsForm } from '../../../../src-renderer/features/voices/this-is-form';
import { useVoicesStore } from '../../../../src-renderer/stores/voices-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, setUiLanguage } from '../fake-api';

const alice: VoiceSummary = {
  id: 'spk_1',
  name: 'Alice',
  sampleCount: 2,
  speechSeconds: 7.4,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

beforeEach(() => {
  useVoicesStore.setState(useVoicesStore.getInitialState(), true);
  useTranscriptStore.setState({ ...useTranscriptStore.getInitialState(), id: 't1' }, true);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setUiLanguage('en');
});

describe('Settings → Voices', () => {
  it('lists voices with their samples, renames one and deletes one after a prompt about voice prints', async () => {
    const fake = installFakeApi({
      'voices:list': () => ({ voices: [alice], offline: false, listedAt: 'x' }),
      'voices:rename': ({ id, name }) => ({ ...alice, id, name }),
      'voices:delete': () => undefined,
    });
    render(<VoicesSection />);
    expect(await screen.findByText('Alice')).toBeTruthy();
    expect(screen.getByText(/^2 samples · 7 s of speech · added /)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Rename the voice Alice' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'New name for the voice Alice' }), {
      target: { value: 'Alice Smith' },
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(fake.calls.find((c) => c.channel === 'voices:rename')?.request).toEqual({
      id: 'spk_1',
      name: 'Alice Smith',
    });
    expect(await screen.findByText('Alice Smith')).toBeTruthy();

    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete the voice Alice Smith' })));
    expect(String((confirm.mock.calls[0] as unknown[])[0])).toContain('voice prints are removed from the server');
    expect(fake.calls.find((c) => c.channel === 'voices:delete')?.request).toEqual({ id: 'spk_1' });
    await waitFor(() => expect(screen.queryByText('Alice Smith')).toBeNull());
  });

  it('lists the parts a voice was learned from, opens one at its moment and forgets one; the part a voice cannot lose cannot be forgotten', async () => {
    const sample = (id: string, start: number, speechSeconds: number, name: string | null) => ({
      id,
      transcriptionId: `t-${id}`,
      transcriptionName: name,
      start,
      end: start + speechSeconds,
      speechSeconds,
      createdAt: '2026-01-02T00:00:00Z',
    });
    const before: VoiceDetail = {
      voice: { ...alice, sampleCount: 3, speechSeconds: 12 },
      samples: [sample('a', 75, 5, 'Weekly meeting'), sample('b', 3, 4, null), sample('c', 10, 3, 'Interview')],
    };
    const after: VoiceDetail = {
      voice: { ...alice, sampleCount: 2, speechSeconds: 7 },
      samples: before.samples.slice(1),
    };
    const fake = installFakeApi({
      'voices:list': () => ({ voices: [alice], offline: false, listedAt: 'x' }),
      'voices:samples': () => before,
      'voices:remove-sample': () => after,
    });
    render(<VoicesSection />);
    const toggle = await screen.findByRole('button', { name: 'Where the voice Alice was learned from' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getAllByTestId('voice-sample')).toHaveLength(3));
    expect(fake.calls.find((c) => c.channel === 'voices:samples')?.request).toEqual({ id: 'spk_1' });
    const rows = screen.getAllByTestId('voice-sample').map((row) => row.textContent);
    expect(rows[0]).toContain('Weekly meeting · 1:15–1:20');
    expect(rows[1]).toContain('A transcription not in this library · 0:03–0:07');
    // A part of a transcription that is not here cannot be opened; one that is opens at its start.
    expect(screen.queryByRole('button', { name: /Open A transcription not in this library/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open Weekly meeting at 1:15 to listen' }));
    expect(useNavigationStore.getState().route).toEqual({ name: 'transcript', id: 't-a', at: 75, play: true });

    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Forget the part 1:15–1:20 of Alice' })));
    expect(String((confirm.mock.calls[0] as unknown[])[0])).toContain('voice print is deleted from the server');
    expect(fake.calls.find((c) => c.channel === 'voices:remove-sample')?.request).toEqual({
      id: 'spk_1',
      sampleId: 'a',
    });
    await waitFor(() => expect(screen.getAllByTestId('voice-sample')).toHaveLength(2));
    expect(screen.getByText(/^2 samples · 7 s of speech/)).toBeTruthy();
    // 7 s in all: either part can still go and leave the 3 s a print needs.
    for (const button of screen.getAllByRole('button', { name: /^Forget the part/ }))
      expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId('voice-samples-why')).toBeNull();
  });

  it('a voice whose only part holds its speech cannot lose that part, and says why', async () => {
    installFakeApi({
      'voices:list': () => ({ voices: [alice], offline: false, listedAt: 'x' }),
      'voices:samples': () => ({
        voice: { ...alice, sampleCount: 1 },
        samples: [
          {
            id: 'only',
            transcriptionId: 't1',
            transcriptionName: 'Call',
            start: 0,
            end: 8,
            speechSeconds: 7.4,
            createdAt: '2026-01-02T00:00:00Z',
          },
        ],
      }),
    });
    render(<VoicesSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Where the voice Alice was learned from' }));
    const forget = await screen.findByRole('button', { name: 'Forget the part 0:00–0:08 of Alice' });
    expect((forget as HTMLButtonElement).disabled).toBe(true);
    // Said on the page, not only in a tooltip a disabled button cannot show to the keyboard.
    const why = screen.getByTestId('voice-samples-why');
    expect(why.textContent).toMatch(/at least 3 s of speech.*remove the voice/);
    expect(forget.getAttribute('aria-describedby')).toBe(why.id);
  });

  it('says when a voice has too little speech to be recognized reliably, and what to do, in English and Japanese', async () => {
    const short: VoiceSummary = { ...alice, id: 'spk_2', name: 'Dan', speechSeconds: 4.36 };
    installFakeApi({
      'voices:list': () => ({
        voices: [alice, short, { ...alice, id: 'spk_3', name: 'Eve', speechSeconds: 20 }],
        offline: false,
        listedAt: 'x',
      }),
    });
    const { unmount } = render(<VoicesSection />);
    await screen.findByText('Dan');
    const notes = screen.getAllByText(/recognizes a voice better with 20 s or more/);
    // Alice (7 s) and Dan (4 s); Eve's 20 s are enough.
    expect(notes.map((n) => n.textContent)).toEqual([
      'Learned from 7 s of speech. Kikitori recognizes a voice better with 20 s or more: use “This is…” on this person in other transcripts.',
      'Learned from 4 s of speech. Kikitori recognizes a voice better with 20 s or more: use “This is…” on this person in other transcripts.',
    ]);
    unmount();
    setUiLanguage('ja');
    render(<VoicesSection />);
    await screen.findByText('Dan');
    expect(screen.getAllByText(/20 秒以上/)).toHaveLength(2);
  });

  it('offline, shows the cached list read-only with a note', async () => {
    installFakeApi({ 'voices:list': () => ({ voices: [alice], offline: true, listedAt: 'x' }) });
    render(<VoicesSection />);
    expect(await screen.findByTestId('voices-offline')).toBeTruthy();
    expect(screen.getByText('Alice')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rename the voice Alice' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete the voice Alice' })).toBeNull();
  });
});

describe('"This is…"', () => {
  const transcript = { speakerNames: { SPEAKER_1: 'Alice' } } as unknown as TranscriptDetail;

  it('sends an existing voice by id and a new name as a new voice', async () => {
    const fake = installFakeApi({
      'voices:list': () => ({ voices: [alice], offline: false, listedAt: 'x' }),
      // Enough speech that the form takes the next name (a voice with little stays open on a note, below).
      'voices:identify': () => ({
        voice: { ...alice, speechSeconds: 25 },
        enrolled: false,
        sampleSeconds: 5,
        transcript,
      }),
    });
    render(<ThisIsForm speaker="SPEAKER_1" name="Speaker 1" />);
    const input = screen.getByRole('combobox', { name: 'Who is Speaker 1? A voice of your team or a new name' });
    await waitFor(() => expect(useVoicesStore.getState().list).toHaveLength(1));
    fireEvent.change(input, { target: { value: 'alice' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Learn voice' })));
    fireEvent.change(input, { target: { value: ' Bob ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Learn voice' })));
    expect(fake.calls.filter((c) => c.channel === 'voices:identify').map((c) => c.request)).toEqual([
      { id: 't1', speaker: 'SPEAKER_1', voice: { id: 'spk_1' } },
      { id: 't1', speaker: 'SPEAKER_1', voice: { name: 'Bob' } },
    ]);
    expect(useTranscriptStore.getState().detail?.speakerNames).toEqual({ SPEAKER_1: 'Alice' });
  });

  it('confirms a voice learned from too little speech with what to do, and closes at once when it has enough', async () => {
    const short: VoiceSummary = { ...alice, sampleCount: 2, speechSeconds: 4.36 };
    let answer = short;
    installFakeApi({
      'voices:list': () => ({ voices: [], offline: false, listedAt: null }),
      'voices:identify': () => ({ voice: answer, enrolled: true, sampleSeconds: 5, transcript }),
    });
    const done = vi.fn();
    const { unmount } = render(<ThisIsForm speaker="SPEAKER_1" name="Speaker 1" onDone={done} />);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'Alice' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Learn voice' })));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain(
      'Learned from 4 s of speech. Kikitori recognizes a voice better with 20 s or more: use “This is…” on this person in other transcripts.',
    );
    expect(done).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(done).toHaveBeenCalledTimes(1);
    unmount();

    answer = { ...alice, speechSeconds: 24 };
    render(<ThisIsForm speaker="SPEAKER_1" name="Speaker 1" onDone={done} />);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'Alice' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Learn voice' })));
    expect(done).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says by its code why the server refused the samples', async () => {
    installFakeApi({
      'voices:list': () => ({ voices: [], offline: false, listedAt: null }),
      'voices:identify': () => ({
        ok: false,
        error: { code: 'validation', reason: 'server.SPEAKER_SAMPLE_INVALID', detail: 'too little speech' },
      }),
    });
    render(<ThisIsForm speaker="SPEAKER_2" name="Speaker 2" />);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'Carol' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Learn voice' })));
    const alert = await screen.findByRole('alert');
    // Worded from the code in the UI's language; the server's own words only under Details.
    expect(alert.textContent).toMatch(/^A voice needs a few seconds of speech/);
  });
});
