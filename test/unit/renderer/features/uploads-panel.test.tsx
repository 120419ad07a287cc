// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadJob } from '../../../../src-shared/ipc-contract';
import { UploadsPanel } from '../../../../src-renderer/features/library/uploads-panel';
import { useUploadsStore } from '../../../../src-renderer/stores/uploads-store';
import { useLibraryStore } from '../../../../src-renderer/stores/library-store';
import { LIMITS } from '../../../../src-shared/limits';
import { installFakeApi, setUiLanguage, summary, type FakeApi, withViewport } from '../fake-api';
import { ja } from '../../../../src-renderer/i18n/messages';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';

const job = (id: string, state: UploadJob['state'], createdAt: string): UploadJob => ({
  id,
  filePath: `/rec/${id}.wav`,
  fileName: `${id}.wav`,
  size: 1000,
  sentBytes: state === 'done' ? 1000 : 400,
  state,
  transcriptionId: state === 'done' ? `t-${id}` : null,
  error: state === 'failed' ? { code: 'offline', reason: 'app.offline' } : null,
  createdAt,
  startedAt: null,
});

let fake: FakeApi;
beforeEach(() => {
  fake = installFakeApi({ 'uploads:clear-finished': () => 2 });
  useUploadsStore.setState(useUploadsStore.getInitialState(), true);
  useLibraryStore.setState({ ...useLibraryStore.getInitialState(), requestedPages: new Set() }, true);
  useUploadsStore.setState({
    jobs: [
      job('monday', 'done', '2026-01-01T00:00:01Z'),
      job('tuesday', 'cancelled', '2026-01-01T00:00:02Z'),
      job('wednesday', 'uploading', '2026-01-01T00:00:03Z'),
      job('thursday', 'failed', '2026-01-01T00:00:04Z'),
    ],
  });
});
afterEach(() => {
  cleanup();
  useSettingsStore.setState({ settings: null });
});

describe('UploadsPanel', () => {
  it('lists every upload newest first, with a summary line', () => {
    render(<UploadsPanel />);
    expect(screen.getAllByTestId('upload-item').map((item) => item.dataset.state)).toEqual([
      'failed',
      'uploading',
      'cancelled',
      'done',
    ]);
    expect(screen.getByTestId('uploads-summary').textContent).toBe('1 in progress · 2 uploaded · 1 failed');
  });

  it('collapses to its summary line and opens again', () => {
    render(<UploadsPanel />);
    const toggle = screen.getByRole('button', { name: /Uploads/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(screen.queryAllByTestId('upload-item')).toHaveLength(0);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('uploads-summary').textContent).toContain('1 in progress');
    fireEvent.click(toggle);
    expect(screen.getAllByTestId('upload-item')).toHaveLength(4);
  });

  it('starts folded to its summary line in a low window, and keeps the choice the user makes', async () => {
    setUiLanguage('en');
    await withViewport({ width: 1024, height: 700 }, async () => {
      render(<UploadsPanel />);
      const toggle = screen.getByRole('button', { name: /Uploads/ });
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
      expect(screen.queryAllByTestId('upload-item')).toHaveLength(0);
      // Folded, it still says what is running and what failed.
      expect(screen.getByTestId('uploads-summary').textContent).toBe('1 in progress · 2 uploaded · 1 failed');
      await act(async () => fireEvent.click(toggle));
      expect(screen.getAllByTestId('upload-item')).toHaveLength(4);
      expect(fake.calls.at(-1)).toEqual({
        channel: 'settings:update',
        request: { collapsedPanels: { uploads: false } },
      });
      cleanup();
      // The next start: main has the choice, and the low window no longer folds the panel.
      useSettingsStore.setState({
        settings: { ...useSettingsStore.getState().settings!, collapsedPanels: { uploads: false } },
      });
      render(<UploadsPanel />);
      expect(screen.getAllByTestId('upload-item')).toHaveLength(4);
    });
  });

  it('clears finished uploads through main, keeping running and failed ones', async () => {
    render(<UploadsPanel />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Clear finished' })));
    expect(fake.calls.at(-1)).toEqual({ channel: 'uploads:clear-finished', request: undefined });
    expect(screen.getAllByTestId('upload-item').map((item) => item.dataset.state)).toEqual(['failed', 'uploading']);
    expect(screen.queryByRole('button', { name: 'Clear finished' })).toBeNull();
  });

  it('words a refused language in the UI language, keeping the server message as the detail', () => {
    useUploadsStore.setState({
      jobs: [
        {
          ...job('friday', 'failed', '2026-01-01T00:00:05Z'),
          error: {
            code: 'unsupported',
            field: 'language',
            reason: 'server.UNSUPPORTED_LANGUAGE',
            detail: 'Japanese needs a speech model that knows Japanese: download one in Settings → Speech recognition.',
          },
        },
      ],
    });
    render(<UploadsPanel />);
    const item = screen.getByTestId('upload-item');
    expect(item.textContent).toContain('The server cannot transcribe the chosen language.');
    expect(item.querySelector('[data-testid="error-details"]')?.textContent).toContain('Japanese needs a speech model');
  });

  it('folded, says a file waits for the server and offers to try again now, in English and Japanese', async () => {
    fake.handlers['uploads:retry'] = ({ id }) => ({ ...job(id, 'queued', '2026-01-01T00:00:05Z'), error: null });
    const stalled: UploadJob = {
      ...job('friday', 'queued', '2026-01-01T00:00:05Z'),
      error: { code: 'offline', reason: 'app.offline' },
    };
    useUploadsStore.setState({ jobs: [job('monday', 'done', '2026-01-01T00:00:01Z'), stalled] });
    render(<UploadsPanel />);
    fireEvent.click(screen.getByRole('button', { name: /Uploads/ }));
    expect(screen.getByTestId('uploads-summary').textContent).toBe('1 waiting for the server · 1 uploaded');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(fake.calls.at(-1)).toEqual({ channel: 'uploads:retry', request: { id: 'friday' } });
    cleanup();
    setUiLanguage('ja');
    useUploadsStore.setState({ jobs: [job('monday', 'done', '2026-01-01T00:00:01Z'), stalled], collapsed: true });
    render(<UploadsPanel />);
    expect(screen.getByTestId('uploads-summary').textContent).toBe('1 件がサーバー待ち · 1 件完了');
    expect(screen.getByRole('button', { name: ja['library.uploads.retryShort'] })).toBeTruthy();
  });

  it('offers "Try again" for failed, cancelled and waiting-after-an-error uploads, and asks main to retry', async () => {
    // As main does: the change goes out as an event, then the reply.
    fake.handlers['uploads:list'] = () => [];
    await useUploadsStore.getState().init();
    fake.handlers['uploads:retry'] = ({ id }) => {
      const queued = { ...job(id, 'queued', '2026-01-01T00:00:04Z'), error: null };
      fake.emit('uploads:changed', queued);
      return queued;
    };
    useUploadsStore.setState({
      jobs: [
        ...useUploadsStore.getState().jobs,
        {
          ...job('friday', 'queued', '2026-01-01T00:00:05Z'),
          error: { code: 'offline', reason: 'app.offline' },
        },
      ],
    });
    render(<UploadsPanel />);
    const retryable = screen
      .getAllByRole('button', { name: /^Try uploading / })
      .map((button) => button.getAttribute('aria-label'));
    expect(retryable).toEqual([
      'Try uploading friday.wav again',
      'Try uploading thursday.wav again',
      'Try uploading tuesday.wav again',
    ]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try uploading thursday.wav again' })));
    expect(fake.calls.at(-1)).toEqual({ channel: 'uploads:retry', request: { id: 'thursday' } });
    expect(useUploadsStore.getState().jobs.find((item) => item.id === 'thursday')?.state).toBe('queued');
  });

  it('follows each file through to its transcription: waiting, uploading %, transcribing %, done, or failed with the reason', () => {
    const at = (n: number) => `2026-01-02T00:00:0${n}Z`;
    useUploadsStore.setState({
      jobs: [
        { ...job('waits', 'queued', at(1)), sentBytes: 0 },
        { ...job('sends', 'uploading', at(2)), sentBytes: 450 },
        { ...job('works', 'done', at(3)) },
        { ...job('ends', 'done', at(4)) },
        { ...job('breaks', 'done', at(5)) },
        { ...job('unseen', 'done', at(6)) },
        { ...job('queues', 'done', at(7)) },
      ],
    });
    useLibraryStore.setState({
      rows: [
        summary('t-queues', { status: 'CONVERTING', progress: 0, stage: 'queued' }),
        summary('t-works', { status: 'IN_PROGRESS', progress: 0.42 }),
        summary('t-ends', { status: 'COMPLETED' }),
        summary('t-breaks', { status: 'FAILED', failureReason: 'The recording holds no speech.' }),
      ],
    });
    render(<UploadsPanel />);
    const line = (name: string) => {
      const item = screen.getByText(`${name}.wav`).closest('li')!;
      return { queue: item.dataset.queue, text: item.querySelector('[data-testid="upload-state"]')!.textContent, item };
    };
    expect(line('waits')).toMatchObject({ queue: 'waiting', text: 'Waiting · 1000 B' });
    expect(line('sends')).toMatchObject({
      queue: 'uploading',
      text: expect.stringMatching(/^Uploading 45% · 450 B \/ 1000 B$/),
    });
    expect(line('works')).toMatchObject({ queue: 'transcribing', text: expect.stringMatching(/^Transcribing · 42%/) });
    expect(line('ends')).toMatchObject({ queue: 'done', text: expect.stringMatching(/^Done/) });
    expect(line('breaks')).toMatchObject({ queue: 'failed', text: expect.stringMatching(/^Failed/) });
    expect(line('breaks').item.textContent).toContain('The recording holds no speech.');
    // Not in the library's rows (yet): only what is certain.
    expect(line('unseen')).toMatchObject({ queue: 'uploaded', text: expect.stringMatching(/^Uploaded/) });
    // Started on the server, waiting there for a free worker.
    expect(line('queues')).toMatchObject({ queue: 'queued', text: expect.stringMatching(/^Waiting to start/) });
    expect(screen.getByTestId('uploads-summary').textContent).toBe('4 in progress · 2 uploaded · 1 failed');
  });

  it('names the stage as the library row does, in English and Japanese (one wording for both)', () => {
    useUploadsStore.setState({ jobs: [job('finds', 'done', '2026-01-02T00:00:01Z')] });
    const row = summary('t-finds', { status: 'IN_PROGRESS', progress: 0.1, stage: 'detecting-speech' });
    useLibraryStore.setState({ rows: [row] });
    const { unmount } = render(<UploadsPanel />);
    const text = () => screen.getByTestId('upload-state').textContent;
    expect(text()).toMatch(/^Finding speech · 10%/);
    unmount();
    setUiLanguage('ja');
    render(<UploadsPanel />);
    expect(text()).toMatch(new RegExp(`^${ja['stage.detecting-speech']} · 10%`));
  });

  it('never reads a row listed before the start as transcribing: the line goes uploaded, then queued (never back)', () => {
    // A poll listed the ticket while its audio was on its way: IN_PROGRESS, meaning "waiting for the audio".
    const ticket = summary('t-late', {
      status: 'IN_PROGRESS',
      progress: null,
      updatedAt: '2026-01-02T00:00:01.000Z',
    });
    useUploadsStore.setState({
      jobs: [{ ...job('late', 'done', '2026-01-02T00:00:00Z'), startedAt: '2026-01-02T00:00:02.000Z' }],
    });
    useLibraryStore.setState({ rows: [ticket] });
    render(<UploadsPanel />);
    const queue = () => screen.getByTestId('upload-item').dataset.queue;
    expect(queue()).toBe('uploaded');
    // The list catches up: the record as the start left it, then as the worker moves it.
    act(() =>
      useLibraryStore.setState({
        rows: [
          { ...ticket, status: 'CONVERTING', progress: 0, stage: 'queued', updatedAt: '2026-01-02T00:00:02.000Z' },
        ],
      }),
    );
    expect(queue()).toBe('queued');
    act(() =>
      useLibraryStore.setState({
        rows: [
          { ...ticket, status: 'CONVERTING', progress: 0, stage: 'converting', updatedAt: '2026-01-02T00:00:03.000Z' },
        ],
      }),
    );
    expect(queue()).toBe('transcribing');
  });

  it('says failed, never uploaded, for a job whose transcription failed, whatever the order of the times', () => {
    // A file the server could not convert fails at once; the row may carry a time before the start's.
    const failed = summary('t-bad', {
      status: 'FAILED',
      failureReason: 'The file could not be read as audio.',
      progress: null,
      updatedAt: '2026-01-02T00:00:01.000Z',
    });
    useUploadsStore.setState({
      jobs: [{ ...job('bad', 'done', '2026-01-02T00:00:00Z'), startedAt: '2026-01-02T00:00:02.000Z' }],
    });
    useLibraryStore.setState({ rows: [failed] });
    render(<UploadsPanel />);
    const item = screen.getByTestId('upload-item');
    expect(item.dataset.queue).toBe('failed');
    expect(screen.getByTestId('upload-state').textContent).not.toMatch(/Uploaded/);
    expect(item.textContent).toContain('The file could not be read as audio.');
  });

  it('says why a job’s transcription failed from its failure code in the UI language, the server’s words under Details', () => {
    setUiLanguage('ja');
    const failed = summary('t-bad', {
      status: 'FAILED',
      failureReason: 'The remote speech service refused this audio or request (HTTP 400).',
      failureCode: 'bad-input',
      progress: null,
      updatedAt: '2026-01-02T00:00:03.000Z',
    });
    useUploadsStore.setState({
      jobs: [{ ...job('bad', 'done', '2026-01-02T00:00:00Z'), startedAt: '2026-01-02T00:00:02.000Z' }],
    });
    useLibraryStore.setState({ rows: [failed] });
    render(<UploadsPanel />);
    const error = screen.getByTestId('upload-item').querySelector('.upload-error')!;
    expect(error.firstChild?.textContent).toBe(ja['failure.bad-input']);
    expect(error.querySelector('.error-detail-text')?.textContent).toBe(
      'The remote speech service refused this audio or request (HTTP 400).',
    );
  });

  it('words a refused speaker count in the user’s terms, keeping the server’s message as the detail', () => {
    useUploadsStore.setState({
      jobs: [
        {
          ...job('saturday', 'failed', '2026-01-01T00:00:06Z'),
          error: {
            code: 'validation',
            field: 'numSpeakers',
            reason: 'server.VALIDATION_FAILED',
            detail: 'num_speakers must be a whole number from 1 to 99; got 120.',
          },
        },
      ],
    });
    render(<UploadsPanel />);
    const item = screen.getByTestId('upload-item');
    expect(item.textContent).toContain(
      `The server refused the number of speakers. Choose “Detect automatically”, or a number from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}`,
    );
    expect(item.querySelector('[data-testid="error-details"] .error-detail-text')?.textContent).toBe(
      'num_speakers must be a whole number from 1 to 99; got 120.',
    );
  });
});
