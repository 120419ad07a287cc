// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcError, TranscriptDetail } from '../../../../src-shared/ipc-contract';
import { ConflictBanner } from '../../../../src-renderer/features/transcript/conflict-banner';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, summary, type FakeApi, setUiLanguage } from '../fake-api';

const REASON = 'This transcript was corrected on the server by someone else while your changes waited to be sent.';
const CONFLICT: IpcError = { code: 'conflict', reason: 'app.edits-conflict' };
const detail = (text: string, conflict: IpcError | null): TranscriptDetail => ({
  summary: summary('t1'),
  speakerNames: {},
  unsyncedEdits: conflict !== null,
  conflict,
  document: {
    transcription_id: 't1',
    text,
    language: 'en',
    duration: 2,
    speaking_duration: 2,
    segments: [{ id: 0, start: 0, end: 2, speaker: null, text, words: [] }],
    replacements: [],
    engine: { name: 'test', model: 'test', transcription_model: 'default' },
    created_at: '2026-01-01T00:00:00Z',
  },
});

let fake: FakeApi;
beforeEach(() => {
  fake = installFakeApi({
    'transcripts:resolve-conflict': ({ keep }) => detail(keep === 'local' ? 'mine' : 'theirs', null),
  });
  useSettingsStore.setState({ settings: null });
  useTranscriptStore.setState({ id: 't1', detail: detail('mine', CONFLICT), loading: false, error: null });
});
afterEach(cleanup);

describe('ConflictBanner', () => {
  it('shows nothing without a conflict', () => {
    useTranscriptStore.setState({ detail: detail('mine', null) });
    render(<ConflictBanner />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('explains the conflict in an alert with labelled choices', () => {
    render(<ConflictBanner />);
    const alert = screen.getByRole('alert', { name: 'Your corrections were not sent' });
    expect(alert.textContent).toContain(REASON);
    expect(screen.getByRole('button', { name: 'Keep my corrections' })).toBeTruthy();
    expect(screen.getByRole('button', { name: "Use the server's text" })).toBeTruthy();
  });

  it.each([
    ['Keep my corrections', 'local', 'mine'],
    ["Use the server's text", 'server', 'theirs'],
  ] as const)('"%s" resolves with keep=%s and shows the fresh detail', async (label, keep, text) => {
    render(<ConflictBanner />);
    fireEvent.click(screen.getByRole('button', { name: label }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(fake.calls).toContainEqual({ channel: 'transcripts:resolve-conflict', request: { id: 't1', keep } });
    expect(useTranscriptStore.getState().detail).toMatchObject({ conflict: null, document: { segments: [{ text }] } });
  });

  it('keeps the banner and shows the error when resolving fails', async () => {
    fake.handlers['transcripts:resolve-conflict'] = () => ({
      ok: false,
      error: { code: 'offline' },
    });
    render(<ConflictBanner />);
    fireEvent.click(screen.getByRole('button', { name: 'Keep my corrections' }));
    await screen.findByText('The server cannot be reached. Check the connection, then try again.');
    expect(screen.getByRole('alert')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Keep my corrections' }).disabled).toBe(false);
  });

  it('speaks Japanese when the UI does', () => {
    setUiLanguage('ja');
    render(<ConflictBanner />);
    expect(screen.getByRole('alert', { name: '修正内容はサーバーに送信されませんでした' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '自分の修正を残す' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'サーバーのテキストを使う' })).toBeTruthy();
  });
});
