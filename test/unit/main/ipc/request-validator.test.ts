import { describe, expect, it } from 'vitest';
import type { HandlerMap } from '../../../../src-main/ipc/handler-registry.js';
import { invokeHandler } from '../../../../src-main/ipc/handler-registry.js';
import { validateRequest } from '../../../../src-main/ipc/request-validator.js';
import {
  IPC_CHANNELS,
  type IpcChannel,
  type IpcError,
  type UploadOptions,
} from '../../../../src-shared/ipc-contract.js';
import { LIMITS } from '../../../../src-shared/limits.js';
import { REVISION_LIMITS } from '../../../../src-shared/api/revisions.js';
import { checkSpeakerCounts } from '../../../../src-shared/speaker-count.js';

const OPTIONS: UploadOptions = {
  language: null,
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};
/** A handle as main issues them (src-main/uploads/file-handles.ts). */
const HANDLE = `file-${'a'.repeat(32)}`;

function refusal(channel: IpcChannel, request: unknown): IpcError {
  try {
    validateRequest(channel, request);
  } catch (error) {
    return (error as { error: IpcError }).error;
  }
  throw new Error(`${channel} accepted ${JSON.stringify(request)}`);
}

describe('IPC request validation', () => {
  it('refuses a wrong type, naming the field', () => {
    expect(refusal('transcripts:get', { id: 5 })).toEqual({
      code: 'validation',
      field: 'id',
      reason: 'app.invalid-request',
      detail: 'id must be text.',
    });
    expect(refusal('search:query', { text: 'x', limit: 2.5 })).toEqual({
      code: 'validation',
      field: 'limit',
      reason: 'app.invalid-request',
      detail: 'limit must be a whole number.',
    });
    expect(
      refusal('transcripts:export', { id: 'x', options: { format: 'txt', speakers: 'yes', timestamps: true } }),
    ).toMatchObject({
      field: 'options.speakers',
      reason: 'app.invalid-request',
      detail: 'Speakers must be true or false.',
    });
    expect(refusal('transcripts:get', 'x')).toMatchObject({
      field: 'request',
      reason: 'app.invalid-request',
      detail: 'Expected an object for the request.',
    });
  });

  it('checks a bulk import: its choice to leave bad lines out, its kind, its size and nothing more', () => {
    const request = { id: 'd1', text: 'Zintrix', kind: 'words' };
    expect(() => validateRequest('dictionaries:import', { ...request, skipBadLines: true })).not.toThrow();
    expect(refusal('dictionaries:import', { ...request, skipBadLines: 'yes' })).toMatchObject({
      field: 'skipBadLines',
      reason: 'app.invalid-request',
    });
    expect(refusal('dictionaries:import', { ...request, kind: 'people' })).toMatchObject({ field: 'kind' });
    expect(refusal('dictionaries:import', { ...request, text: 'x'.repeat(5_000_001) })).toMatchObject({
      field: 'text',
    });
    expect(refusal('dictionaries:import', { ...request, teamId: 'other-team' })).toMatchObject({
      reason: 'app.invalid-request',
    });
  });

  it('refuses an unknown field, at any depth', () => {
    expect(refusal('dictionaries:rename', { id: 'd1', name: 'x', colour: 'red' })).toEqual({
      code: 'validation',
      field: 'colour',
      reason: 'app.invalid-request',
      detail: 'Unknown field "colour".',
    });
    expect(refusal('uploads:add', { files: [HANDLE], options: { ...OPTIONS, speed: 2 } })).toMatchObject({
      field: 'options.speed',
      reason: 'app.invalid-request',
      detail: 'Unknown field "speed".',
    });
    expect(refusal('connection:status', { surprise: true })).toMatchObject({
      code: 'validation',
      reason: 'app.invalid-request',
      detail: 'This operation takes no request.',
    });
  });

  it('refuses a missing field', () => {
    const { words: _, ...withoutWords } = OPTIONS;
    expect(refusal('uploads:add', { files: [HANDLE], options: withoutWords })).toMatchObject({
      field: 'options.words',
      reason: 'app.invalid-request',
      detail: 'Missing field "words".',
    });
  });

  it('refuses a too-long or blank string with the limit in the message', () => {
    expect(refusal('dictionaries:create', { name: 'x'.repeat(LIMITS.name + 1) })).toEqual({
      code: 'validation',
      field: 'name',
      reason: 'app.invalid-request',
      detail: `Name must have at most ${LIMITS.name} characters.`,
    });
    expect(refusal('dictionaries:create', { name: '   ' })).toMatchObject({
      field: 'name',
      reason: 'app.invalid-request',
      detail: 'Name must not be empty.',
    });
    expect(refusal('transcripts:get', { id: 'a/b' })).toMatchObject({
      field: 'id',
      reason: 'app.invalid-request',
      detail: 'id is not a valid id.',
    });
  });

  it('names a nested array item by its dot path', () => {
    const words = [{ word: 'ok' }, { word: 'Kikitori', reading: 'k'.repeat(LIMITS.reading + 1) }];
    expect(refusal('dictionaries:add-words', { id: 'd1', words })).toEqual({
      code: 'validation',
      field: 'words.1.reading',
      reason: 'app.invalid-request',
      detail: `Reading must have at most ${LIMITS.reading} characters.`,
    });
    expect(refusal('uploads:add', { files: [HANDLE], options: { ...OPTIONS, words: [{ word: '' }] } })).toMatchObject({
      field: 'options.words.0.word',
      reason: 'app.invalid-request',
      detail: 'Word must not be empty.',
    });
    expect(refusal('transcripts:list', { filter: { status: ['DONE'] } })).toMatchObject({
      field: 'filter.status.0',
      reason: 'app.invalid-request',
      detail: expect.stringContaining('must be one of IN_PROGRESS'),
    });
  });

  it('bounds a conflict settled segment by segment', () => {
    const settled = { segmentId: 3, text: 'merged text', speaker: null };
    expect(() => validateRequest('transcripts:settle-conflict', { id: 't1', segments: [settled] })).not.toThrow();
    expect(refusal('transcripts:settle-conflict', { id: 't1', segments: [] })).toMatchObject({ field: 'segments' });
    expect(refusal('transcripts:settle-conflict', { id: '../t1', segments: [settled] })).toMatchObject({ field: 'id' });
    expect(
      refusal('transcripts:settle-conflict', { id: 't1', segments: [{ ...settled, segmentId: -1 }] }),
    ).toMatchObject({ field: 'segments.0.segmentId' });
    expect(
      refusal('transcripts:settle-conflict', {
        id: 't1',
        segments: [{ ...settled, text: 'x'.repeat(REVISION_LIMITS.text + 1) }],
      }),
    ).toMatchObject({ field: 'segments.0.text' });
    expect(
      refusal('transcripts:settle-conflict', { id: 't1', segments: [{ ...settled, speaker: ' ' }] }),
    ).toMatchObject({ field: 'segments.0.speaker' });
    expect(
      refusal('transcripts:settle-conflict', { id: 't1', segments: [{ ...settled, keep: 'local' }] }),
    ).toMatchObject({ field: 'segments.0.keep' });
    expect(
      refusal('transcripts:settle-conflict', { id: 't1', segments: Array.from({ length: 10_001 }, () => settled) }),
    ).toMatchObject({ field: 'segments' });
  });

  it('keeps speaker counts within the shared limit, and applies the cross-field speaker rule', () => {
    expect(
      refusal('uploads:add', { files: [HANDLE], options: { ...OPTIONS, numSpeakers: LIMITS.speakers.max + 1 } }),
    ).toEqual({
      code: 'validation',
      field: 'options.numSpeakers',
      reason: 'app.invalid-request',
      detail: `Number of speakers must be between ${LIMITS.speakers.min} and ${LIMITS.speakers.max}.`,
    });
    expect(
      refusal('uploads:add', { files: [HANDLE], options: { ...OPTIONS, minSpeakers: 3, maxSpeakers: 2 } }),
    ).toEqual({
      code: 'validation',
      field: 'options.minSpeakers',
      reason: 'app.invalid-request',
      detail: 'The minimum number of speakers is above the maximum.',
    });
    expect(
      refusal('uploads:add', { files: [HANDLE], options: { ...OPTIONS, numSpeakers: 5, maxSpeakers: 4 } }),
    ).toMatchObject({ field: 'options.numSpeakers' });
    expect(
      refusal('uploads:add', { files: [HANDLE], options: { ...OPTIONS, dictionaryId: 'd1', words: [{ word: 'x' }] } }),
    ).toMatchObject({ field: 'options.words' });
  });

  it('applies the cross-field analysis language rule', () => {
    expect(refusal('analysis:request', { id: 'x', kind: 'translation' })).toMatchObject({
      field: 'language',
      reason: 'app.invalid-request',
      detail: 'Choose the language to translate into.',
    });
    expect(refusal('analysis:get', { id: 'x', kind: 'summary', language: 'en' })).toMatchObject({
      field: 'language',
      reason: 'app.invalid-request',
      detail: 'Only a translation takes a language.',
    });
  });

  it('normalises once, without touching the caller’s object', () => {
    const request = {
      files: [HANDLE],
      options: {
        ...OPTIONS,
        language: 'EN',
        words: [
          { word: ' Kikitori ', reading: '  ' },
          { word: 'Zin', reading: ' zin ' },
        ],
      },
    };
    expect(validateRequest('uploads:add', request)).toEqual({
      files: [HANDLE],
      options: { ...OPTIONS, language: 'en', words: [{ word: 'Kikitori' }, { word: 'Zin', reading: 'zin' }] },
    });
    expect(request.options.language).toBe('EN');
    expect(
      validateRequest('dictionaries:add-replacement-rules', { id: 'd', replacementRules: [{ pattern: ' gonna ' }] }),
    ).toEqual({ id: 'd', replacementRules: [{ pattern: 'gonna', replacement: '' }] });
    expect(validateRequest('dictionaries:rename', { id: 'd', name: '  Products ' })).toEqual({
      id: 'd',
      name: 'Products',
    });
  });

  it('accepts nothing, null or {} on channels without a request', () => {
    for (const request of [undefined, null, {}]) expect(() => validateRequest('uploads:list', request)).not.toThrow();
    expect(refusal('transcripts:list', undefined)).toMatchObject({ field: 'request' });
  });

  it('runs no handler for a refused request, and answers the refusal as data', async () => {
    let calls = 0;
    const handlers = Object.fromEntries(
      IPC_CHANNELS.map((channel) => [channel, async () => void calls++]),
    ) as unknown as HandlerMap;
    expect(await invokeHandler(handlers, 'dictionaries:get', { id: '' })).toEqual({
      ok: false,
      error: { code: 'validation', field: 'id', reason: 'app.invalid-request', detail: 'id must not be empty.' },
    });
    expect(calls).toBe(0);
    expect(await invokeHandler(handlers, 'dictionaries:get', { id: 'd1' })).toEqual({ ok: true, value: undefined });
    expect(calls).toBe(1);
  });
});

describe('the shared speaker-count rule', () => {
  const counts = (numSpeakers: number | null, minSpeakers: number | null, maxSpeakers: number | null) => ({
    numSpeakers,
    minSpeakers,
    maxSpeakers,
  });

  it('answers the offending field and a reason code', () => {
    expect(checkSpeakerCounts(counts(null, null, null))).toBeNull();
    expect(checkSpeakerCounts(counts(3, 2, 4))).toBeNull();
    expect(checkSpeakerCounts(counts(LIMITS.speakers.max, null, null))).toBeNull();
    expect(checkSpeakerCounts(counts(LIMITS.speakers.max + 1, null, null))).toEqual({
      field: 'numSpeakers',
      reason: 'out-of-range',
    });
    expect(checkSpeakerCounts(counts(null, 0, null))).toEqual({ field: 'minSpeakers', reason: 'out-of-range' });
    expect(checkSpeakerCounts(counts(null, null, 2.5))).toEqual({ field: 'maxSpeakers', reason: 'out-of-range' });
    expect(checkSpeakerCounts(counts(null, 4, 2))).toEqual({ field: 'minSpeakers', reason: 'min-above-max' });
    expect(checkSpeakerCounts(counts(1, 2, null))).toEqual({ field: 'numSpeakers', reason: 'outside-min-max' });
    expect(checkSpeakerCounts(counts(5, null, 4))).toEqual({ field: 'numSpeakers', reason: 'outside-min-max' });
  });
});
