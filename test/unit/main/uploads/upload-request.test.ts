// The upload request main builds stays within the limits the server's own schema enforces.
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { uploadFileName, uploadRequestOf } from '../../../../src-main/uploads/upload-manager.js';
import { UploadRequest } from '../../../../src-shared/api/transcriptions.js';
import { LIMITS } from '../../../../src-shared/limits.js';

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
});
