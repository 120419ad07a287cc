// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnalysisView, ExportOptions, TranscriptDetail } from '../../../../src-shared/ipc-contract';
import { ExportMenu } from '../../../../src-renderer/features/transcript/export-menu';
import { useAnalysisStore } from '../../../../src-renderer/stores/analysis-store';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { freshSettings, installFakeApi, type FakeApi, transcriptDetail } from '../fake-api';

const detail = (language: string): TranscriptDetail =>
  transcriptDetail([{ id: 0, start: 0, end: 2, speaker: 'SPEAKER_1', text: 'Hello.', words: [] }], {
    language,
    text: 'Hello.',
  });

const french: AnalysisView = {
  kind: 'translation',
  status: 'COMPLETED',
  language: 'fr',
  error: null,
  errorCode: null,
  summary: null,
  emotions: null,
  translation: { text: 'Bonjour.', language: 'fr', segments: [{ segment_id: 0, start: 0, end: 2, text: 'Bonjour.' }] },
  updatedAt: '2026-01-01T00:00:00Z',
  outdated: false,
};

let fake: FakeApi;
let translation: AnalysisView | null;
function setup(language = 'en', uiLanguage: 'en' | 'ja' = 'en') {
  fake = installFakeApi({
    'transcripts:export': () => ({
      path: '/tmp/out.srt',
      subtitles: {
        cues: 12,
        tooFast: 3,
        maxCps: 17,
        fast: [
          { index: 2, start: 3.5, end: 4.4, text: 'Far too many words\nfor this little time', cps: 41.1, segmentId: 0 },
          { index: 7, start: 65, end: 66, text: 'Quick.', cps: 18, segmentId: 0 },
          { index: 11, start: 3725.4, end: 3726.3, text: 'And again.', cps: 19.5, segmentId: 0 },
        ],
      },
    }),
    'analysis:get': () => translation,
  });
  useSettingsStore.setState({ settings: freshSettings({ uiLanguage }) });
  useAnalysisStore.setState({ slots: {} });
  useTranscriptStore.setState({ id: 't1', detail: detail(language), loading: false, error: null });
}
const exported = () =>
  fake.calls
    .filter((c) => c.channel === 'transcripts:export')
    .map((c) => (c.request as { options: ExportOptions }).options);

beforeEach(() => {
  translation = null;
});
afterEach(cleanup);

describe('ExportMenu', () => {
  it('closes on Escape wherever focus is after exporting, and gives focus back to its button', async () => {
    setup('en');
    render(<ExportMenu />);
    const opener = screen.getByRole('button', { name: 'Export…' });
    fireEvent.click(opener);
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'srt' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Saved to /tmp/out.srt'));
    // The save dialog took focus away: the Escape reaches the window, not the panel.
    (document.activeElement as HTMLElement | null)?.blur();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Export transcript' })).toBeNull();
    expect(opener.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(opener);
  });

  it('closes on a click outside it (such as on the button of another popover), not on a click inside it', () => {
    setup('en');
    render(
      <>
        <ExportMenu />
        <button type="button">History</button>
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    fireEvent.pointerDown(screen.getByLabelText('Format'));
    expect(screen.getByRole('dialog', { name: 'Export transcript' })).toBeTruthy();
    fireEvent.pointerDown(screen.getByRole('button', { name: 'History' }));
    expect(screen.queryByRole('dialog', { name: 'Export transcript' })).toBeNull();
  });

  it('shows subtitle options only for SRT and WebVTT, with the defaults of the transcript language', () => {
    setup('ja');
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    expect(screen.queryByLabelText('Characters per line')).toBeNull();
    expect(screen.getByLabelText('Include timestamps')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'srt' } });
    expect(screen.getByLabelText<HTMLInputElement>('Characters per line').value).toBe('13');
    expect(screen.getByLabelText<HTMLInputElement>('Lines per subtitle').value).toBe('2');
    expect(screen.getByLabelText<HTMLInputElement>('Longest subtitle (seconds)').value).toBe('7');
    expect(screen.getByLabelText<HTMLInputElement>('Gap between subtitles (milliseconds)').value).toBe('80');
    expect(screen.queryByLabelText('Include timestamps')).toBeNull();
    // SRT has no voice tags; WebVTT lets the user choose.
    expect(screen.queryByLabelText('Name speakers')).toBeNull();
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'vtt' } });
    expect(screen.getByLabelText('Name speakers')).toBeTruthy();
  });

  it('sends the options it shows, and says how many subtitles read too fast', async () => {
    setup('en');
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'vtt' } });
    fireEvent.change(screen.getByLabelText('Characters per line'), { target: { value: '32' } });
    fireEvent.change(screen.getByLabelText('Lines per subtitle'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Longest subtitle (seconds)'), { target: { value: '5.5' } });
    fireEvent.change(screen.getByLabelText('Gap between subtitles (milliseconds)'), { target: { value: '120' } });
    fireEvent.change(screen.getByLabelText('Name speakers'), { target: { value: 'prefix' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Saved to /tmp/out.srt'));
    expect(screen.getByRole('status').textContent).toContain(
      '3 of 12 subtitles read faster than 17 characters per second',
    );
    expect(exported()).toEqual([
      {
        format: 'vtt',
        speakers: true,
        timestamps: true,
        subtitles: {
          maxCharsPerLine: 32,
          maxLinesPerCue: 1,
          maxCueDuration: 5.5,
          minGap: 0.12,
          speakerStyle: 'prefix',
          translation: null,
        },
      },
    ]);
  });

  it('lists the subtitles that read too fast, each a jump to its moment in the player', async () => {
    setup('en');
    usePlayerStore.setState(usePlayerStore.getInitialState(), true);
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'srt' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    const list = await screen.findByRole('region', { name: 'Subtitles that read too fast' });
    const items = within(list).getAllByRole('button');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Go to subtitle 2 at 0:03',
      'Go to subtitle 7 at 1:05',
      'Go to subtitle 11 at 1:02:05',
    ]);
    expect(items[0]!.textContent).toContain('Far too many words for this little time');
    expect(items[0]!.textContent).toContain('41.1 characters/s');
    fireEvent.click(items[1]!);
    expect(usePlayerStore.getState().currentTime).toBe(65);
    expect(usePlayerStore.getState().seeks).toBe(1);
    // The next export starts a new list: none when nothing reads too fast.
    fake.handlers['transcripts:export'] = () => ({
      path: '/tmp/out.srt',
      subtitles: { cues: 12, tooFast: 0, maxCps: 17, fast: [] },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Subtitles that read too fast' })).toBeNull());
  });

  it('clears the previous "Saved to …" when the next export is cancelled, and says nothing was saved', async () => {
    setup('en');
    let cancelled = false;
    fake.handlers['transcripts:export'] = () => (cancelled ? null : { path: '/tmp/out.txt' });
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved to /tmp/out.txt.'));
    cancelled = true;
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Export cancelled: nothing was saved.'));
  });

  it('remembers the last subtitle options in the settings, and starts from them', async () => {
    setup('en');
    fake.handlers['settings:update'] = ({ subtitleExport }) => ({
      ...useSettingsStore.getState().settings!,
      ...(subtitleExport ? { subtitleExport } : {}),
    });
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'srt' } });
    fireEvent.change(screen.getByLabelText('Characters per line'), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(useSettingsStore.getState().settings?.subtitleExport?.maxCharsPerLine).toBe(30));
    expect(fake.calls.find((c) => c.channel === 'settings:update')?.request).toEqual({
      subtitleExport: {
        maxCharsPerLine: 30,
        maxLinesPerCue: 2,
        maxCueDuration: 7,
        minGap: 0.08,
        speakerStyle: 'voice',
        translation: null,
      },
    });
    cleanup();
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'srt' } });
    expect(screen.getByLabelText<HTMLInputElement>('Characters per line').value).toBe('30');
  });

  it('refuses a number out of range next to its field, and sends nothing', () => {
    setup('en');
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'srt' } });
    const lines = screen.getByLabelText('Lines per subtitle');
    fireEvent.change(lines, { target: { value: '9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(lines.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(lines.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Enter a number from 1 to 4.',
    );
    expect(exported()).toEqual([]);
  });

  it('offers the translation when one exists, and sends its language', async () => {
    translation = french;
    setup('en');
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'srt' } });
    const include = await screen.findByLabelText('Add the French translation under each subtitle');
    fireEvent.click(include);
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(exported()).toHaveLength(1));
    expect(exported()[0]!.subtitles).toMatchObject({ translation: 'fr', maxCharsPerLine: null });
  });

  it('offers no translation when there is none', async () => {
    setup('en');
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'srt' } });
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'analysis:get')).toBe(true));
    expect(screen.queryByText(/translation under each subtitle/)).toBeNull();
  });

  it('speaks Japanese', () => {
    setup('ja', 'ja');
    render(<ExportMenu />);
    fireEvent.click(screen.getByRole('button', { name: '書き出し…' }));
    fireEvent.change(screen.getByLabelText('形式'), { target: { value: 'srt' } });
    expect(screen.getByRole('group', { name: '字幕' })).toBeTruthy();
    expect(screen.getByLabelText('1行の文字数')).toBeTruthy();
  });
});
