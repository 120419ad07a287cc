// The upload request main builds stays within the limits the server's own schema enforces.
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { uploadFileName, uploadRequestOf } from '../../../../src-main/uploads/upload-manager.js';
import { UploadRequest } from '../../../../src-shared/api/transcriptions.js';
import { LIMITS } from '../../../../src-shared/limits.js';
import { UploadOptions } from '../../../../src-shared/ipc/requests.js';

const OPTIONS = {
  language: null,
  model: 'default' as const,
  numSpeakers: null,
  minSpeakers: 2,
  maxSpeakers: LIMITS.speakers.max,
  dictionaryId: null,
  words: [],
};

describe('the upload request', () => {
  it('keeps a name within the server’s filename limit, with its start and its extension', () => {
    const long = `${'会議'.repeat(400)}.m4a`;
    const name = uploadFileName(long);
    expect([...name]).toHaveLength(LIMITS.filename);
    expect(name.startsWith('会議会議')).toBe(true);
    expect(name.endsWith('.m4a')).toBe(true);
    expect(uploadFileName('meeting.wav')).toBe('meeting.wav');
    expect(Value.Check(UploadRequest, uploadRequestOf(long, OPTIONS))).toBe(true);
    expect(Value.Check(UploadRequest, { ...uploadRequestOf(long, OPTIONS), filename: long })).toBe(false);
  });

  it('sends the speaker counts the server accepts, up to the shared limit', () => {
    expect(uploadRequestOf('a.wav', OPTIONS)).toMatchObject({ min_speakers: 2, max_speakers: LIMITS.speakers.max });
    expect(uploadRequestOf('a.wav', OPTIONS)).not.toHaveProperty('num_speakers');
    expect(Value.Check(UploadRequest, uploadRequestOf('a.wav', OPTIONS))).toBe(true);
    expect(
      Value.Check(UploadRequest, uploadRequestOf('a.wav', { ...OPTIONS, maxSpeakers: LIMITS.speakers.max + 1 })),
    ).toBe(false);
  });

  it('asks for multichannel without speaker counts, which the server refuses beside it (decision 0061)', () => {
    const request = uploadRequestOf('call.wav', { ...OPTIONS, numSpeakers: 2, multichannel: true });
    expect(request).toMatchObject({ multichannel: true });
    expect(request).not.toHaveProperty('num_speakers');
    expect(request).not.toHaveProperty('min_speakers');
    expect(request).not.toHaveProperty('max_speakers');
    expect(Value.Check(UploadRequest, request)).toBe(true);
    expect(uploadRequestOf('memo.wav', OPTIONS)).not.toHaveProperty('multichannel');
    expect(uploadRequestOf('memo.wav', { ...OPTIONS, multichannel: false })).not.toHaveProperty('multichannel');
    // What the renderer may send over IPC: a boolean, or nothing.
    expect(Value.Check(UploadOptions, { ...OPTIONS, multichannel: true })).toBe(true);
    expect(Value.Check(UploadOptions, OPTIONS)).toBe(true);
    for (const hostile of ['yes', 1, null, {}]) {
      expect(Value.Check(UploadOptions, { ...OPTIONS, multichannel: hostile })).toBe(false);
    }
  });
});
