// @vitest-environment happy-dom
// "Import folder…": the button asks main's folder dialog, main's answer is queued and summed up in one
// sentence, in English and Japanese, with what the skipped files looked like (counted, never named).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FolderImport, UploadJob } from '../../../../src-shared/ipc-contract';
import { DropZone } from '../../../../src-renderer/features/library/drop-zone';
import { FolderImportNote, folderImportSummary } from '../../../../src-renderer/features/library/folder-import-note';
import { translate } from '../../../../src-renderer/i18n/messages';
import type { T } from '../../../../src-renderer/i18n/use-t';
import { DEFAULT_UPLOAD_OPTIONS, useUploadsStore } from '../../../../src-renderer/stores/uploads-store';
import { installFakeApi, type FakeApi } from '../fake-api';

const job = (name: string, index: number): UploadJob => ({
  id: `job-${index}`,
  filePath: `/home/me/Interviews/${name}`,
  fileName: name,
  size: 1000,
  sentBytes: 0,
  state: 'queued',
  transcriptionId: null,
  error: null,
  createdAt: `2026-01-01T00:00:0${index}Z`,
  startedAt: null,
});

const FOLDER = `file-${'f'.repeat(32)}`;

const IMPORTED: FolderImport = {
  folder: 'Interviews',
  jobs: ['take 2.wav', 'take 10.wav', 'visit.mp3'].map(job),
  skipped: { 'not-media': 2, empty: 1 },
  notMedia: { pdf: 1, text: 1 },
  foldersTooDeep: 0,
};

let fake: FakeApi;
beforeEach(() => {
  useUploadsStore.setState(
    { ...useUploadsStore.getInitialState(), options: { ...DEFAULT_UPLOAD_OPTIONS, numSpeakers: 2 } },
    true,
  );
  fake = installFakeApi({
    'uploads:pick-folder': () => ({ handle: FOLDER, kind: 'folder', name: 'Interviews', size: null }),
    'uploads:add-folder': () => IMPORTED,
  });
});
afterEach(cleanup);

describe('folder import', () => {
  it('asks main for a folder, imports it with the form’s options, and says what was added and skipped', async () => {
    render(
      <>
        <DropZone />
        <FolderImportNote />
      </>,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import folder…' })));
    expect(fake.calls.map((call) => call.channel)).toEqual(['uploads:pick-folder', 'uploads:add-folder']);
    expect(fake.calls[1]!.request).toEqual({ folder: FOLDER, options: { ...DEFAULT_UPLOAD_OPTIONS, numSpeakers: 2 } });
    expect(useUploadsStore.getState().jobs.map((j) => j.fileName)).toEqual(['take 2.wav', 'take 10.wav', 'visit.mp3']);
    expect(screen.getByTestId('folder-import-summary').textContent).toBe(
      '3 files added from “Interviews”, 3 skipped: 2 not audio or video, 1 empty',
    );
    expect(screen.getByTestId('folder-import-note').textContent).toContain('PDF: 1');
    expect(screen.getByTestId('folder-import-note').textContent).toContain('TEXT: 1');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('folder-import-note')).toBeNull();
  });

  it('does nothing when the folder dialog is cancelled', async () => {
    fake.handlers['uploads:pick-folder'] = () => null;
    render(<DropZone />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import folder…' })));
    expect(fake.calls.map((call) => call.channel)).toEqual(['uploads:pick-folder']);
  });

  it('words the outcome in either language, one reason or several, and a folder without recordings', () => {
    const en: T = (key, params) => translate('en', key, params);
    const ja: T = (key, params) => translate('ja', key, params);
    const oneReason = { ...IMPORTED, skipped: { 'not-media': 2 } };
    expect(folderImportSummary(en, oneReason)).toBe('3 files added from “Interviews”, 2 skipped: not audio or video');
    expect(folderImportSummary(ja, oneReason)).toBe(
      '「Interviews」から 3 件を追加しました。2 件をスキップ：音声・動画ではない',
    );
    expect(folderImportSummary(en, { ...IMPORTED, jobs: IMPORTED.jobs.slice(0, 1), skipped: {}, notMedia: {} })).toBe(
      '1 file added from “Interviews”',
    );
    expect(folderImportSummary(en, { ...IMPORTED, jobs: [] })).toBe(
      'No audio or video files found in “Interviews”, 3 skipped: 2 not audio or video, 1 empty',
    );
    expect(folderImportSummary(ja, IMPORTED)).toBe(
      '「Interviews」から 3 件を追加しました。3 件をスキップ：音声・動画ではない 2 件、空のファイル 1 件',
    );
  });
});
