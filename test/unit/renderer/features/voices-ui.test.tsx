// @vitest-environment happy-dom
// The voice library in the renderer (decision 0075): Settings → Voices and "This is…".
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptDetail, VoiceSummary } from '../../../../src-shared/ipc-contract';
import { VoicesSection } from '../../../../src-renderer/features/voices/voices-section';
import { ThisIsForm } from '../../../../src-renderer/features/voices/this-is-form';
import { useVoicesStore } from '../../../../src-renderer/stores/voices-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi } from '../fake-api';

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
      'voices:identify': () => ({ voice: alice, enrolled: false, sampleSeconds: 5, transcript }),
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
