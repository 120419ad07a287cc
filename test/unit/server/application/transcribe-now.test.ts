// The "transcribe now" use case on its own: a real file-system storage in a temporary folder, speech
// engines that say what they can do (never run here), and a queue that records what it is sent and
// answers a document: the queue is the boundary this test is not about.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../../src-shared/limits.js';
import type { AppContext } from '../../../../src-server/app-context.js';
import { TranscribeNow, type TranscribeNowRequest } from '../../../../src-server/application/transcribe-now.js';
import type { SpeechEngine } from '../../../../src-server/engines/speech/speech-engine.js';
import { AppError } from '../../../../src-server/application/errors.js';
import { FileSystemStorage } from '../../../../src-server/storage/file-system-storage.js';

function engine(name: string, languages: string[], detects: boolean): SpeechEngine {
  const capabilities = {
    languages,
    wordTimestamps: true,
    customVocabulary: false,
    speakerSeparation: false,
    translatesToEnglish: detects,
  };
  const recognize = () => Promise.reject(new Error('not run in this test'));
  return Object.assign({ name, capabilities, recognize }, detects ? { detectsLanguage: true } : {});
}

let dir: string;
let sent: Array<{ name: string; payload: Record<string, unknown> }>;
let ctx: AppContext;

function context(defaultEngine: SpeechEngine, speakers: boolean): AppContext {
  const engines = new Map([[defaultEngine.name, defaultEngine]]);
  return {
    config: { dataDir: dir, uploads: { maxBytes: 1024 * 1024, teamQuotaBytes: undefined }, disk: { minFreeBytes: 0 } },
    logger: pino({ level: 'silent' }),
    storage: new FileSystemStorage(path.join(dir, 'storage')),
    freeSpace: () => Promise.resolve(Number.MAX_SAFE_INTEGER),
    storageUsage: {
      quotaOverride: () => Promise.resolve(undefined),
      audioBytes: () => Promise.resolve(0),
      reservedBytes: () => Promise.resolve(0),
    },
    dictionaries: { get: () => Promise.resolve(null) },
    // The team's voice library: one voice, "Receptionist".
    voices: {
      enrolled: (teamId: string) =>
        Promise.resolve(teamId === 'team' ? [{ speakerId: 'voice-1', name: 'Receptionist', prints: [] }] : []),
    },
    engines: {
      speechEngines: engines,
      speechFor: () => defaultEngine,
      speakers: speakers ? { name: 'embedded-mfcc' } : null,
    },
    queue: {
      send: (name: string, payload: Record<string, unknown>) => {
        sent.push({ name, payload });
        return Promise.resolve('job-1');
      },
      wait: () => Promise.resolve({ text: 'hello', language: 'en', engine: { model: 'm' } }),
      cancel: () => Promise.resolve(),
    },
  } as unknown as AppContext;
}

const request = (over: Partial<TranscribeNowRequest> = {}): TranscribeNowRequest => ({
  task: 'transcribe',
  model: 'whisper-1',
  language: null,
  prompt: '',
  dictionaryId: null,
  speakers: null,
  diarize: false,
  ...over,
});

async function session(): Promise<TranscribeNow> {
  const now = await TranscribeNow.begin(ctx, { teamId: 'team', userId: 'user', keyId: 'key' } as never, 100);
  await now.storeUpload('speech.wav', Readable.from([Buffer.from('RIFF....')]));
  return now;
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected an AppError, got ${String(error)}`);
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'transcribe-now-'));
  sent = [];
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('transcribe now', () => {
  it('asks an engine that detects languages to detect when no language is given, even one that knows one language', async () => {
    ctx = context(engine('whisper', ['en'], true), false);
    const now = await session();
    const result = await now.run(request(), new AbortController().signal);
    expect(result.engine).toBe('whisper');
    expect(sent).toEqual([
      {
        name: 'openai-transcribe',
        payload: expect.objectContaining({ language: 'auto', speakers: null, engine: 'whisper' }),
      },
    ]);
    await now.end(() => undefined);
    expect(await ctx.storage.list('openai')).toEqual([]);
  });

  it('runs any other engine in its first language, and keeps a language it was given', async () => {
    ctx = context(engine('pocketsphinx', ['ja', 'en'], false), false);
    await (await session()).run(request(), new AbortController().signal);
    await (await session()).run(request({ language: 'en' }), new AbortController().signal);
    expect(sent.map((s) => s.payload.language)).toEqual(['ja', 'en']);
  });

  it(`takes speaker counts up to ${LIMITS.speakers.max} and refuses min above max before any job`, async () => {
    ctx = context(engine('pocketsphinx', ['en'], false), true);
    await (
      await session()
    ).run(
      request({ speakers: { numSpeakers: null, minSpeakers: null, maxSpeakers: LIMITS.speakers.max } }),
      new AbortController().signal,
    );
    expect(sent[0]!.payload.speakers).toEqual({ maxSpeakers: LIMITS.speakers.max, quality: 'standard' });

    const error = await refusal(
      (await session()).run(
        request({ speakers: { numSpeakers: null, minSpeakers: 5, maxSpeakers: 2 } }),
        new AbortController().signal,
      ),
    );
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'min_speakers' });
    const past = await refusal(
      (await session()).run(
        request({ speakers: { numSpeakers: LIMITS.speakers.max + 1, minSpeakers: null, maxSpeakers: null } }),
        new AbortController().signal,
      ),
    );
    expect(past).toMatchObject({ code: 'VALIDATION_FAILED', field: 'num_speakers' });
    expect(sent).toHaveLength(1);
  });

  it('refuses speakers where the server separates none, and a language the engine does not know', async () => {
    ctx = context(engine('pocketsphinx', ['en'], false), false);
    const speakers = await refusal(
      (await session()).run(
        request({ speakers: { numSpeakers: 2, minSpeakers: null, maxSpeakers: null } }),
        new AbortController().signal,
      ),
    );
    expect(speakers).toMatchObject({ code: 'UNSUPPORTED_OPTION', field: 'num_speakers' });
    const language = await (await session()).run(request({ language: 'ja' }), new AbortController().signal).then(
      () => null,
      (e: unknown) => e,
    );
    expect(language).toMatchObject({ kind: 'unsupported' });
    expect(sent).toEqual([]);
  });

  it('separates for diarized_json and diarization-high (enhanced), not for the default model otherwise', async () => {
    ctx = context(engine('pocketsphinx', ['en'], false), true);
    const run = async (over: Partial<TranscribeNowRequest>) =>
      (await session()).run(request(over), new AbortController().signal);
    await run({});
    await run({ diarize: true });
    await run({ model: 'diarization-high' });
    await run({
      model: 'diarization-high',
      diarize: true,
      speakers: { numSpeakers: 2, minSpeakers: null, maxSpeakers: null },
    });
    expect(sent.map((s) => s.payload.speakers)).toEqual([
      null,
      { quality: 'standard' },
      { quality: 'enhanced' },
      { numSpeakers: 2, quality: 'enhanced' },
    ]);
  });

  it('keeps reference clips beside the upload for the job, and removes them with it when the request ends', async () => {
    ctx = context(engine('pocketsphinx', ['en'], false), true);
    const now = await session();
    const knownSpeakers = [
      { name: 'agent', mediaType: 'audio/wav', audio: Buffer.from('agent clip') },
      { name: 'customer', mediaType: 'audio/wav', audio: Buffer.from('customer clip') },
    ];
    await now.run(request({ diarize: true, knownSpeakers }), new AbortController().signal);
    const { audioKey, knownSpeakerNames, knownSpeakerReferences } = sent[0]!.payload as {
      audioKey: string;
      knownSpeakerNames: string[];
      knownSpeakerReferences: string[];
    };
    expect(knownSpeakerNames).toEqual(['agent', 'customer']);
    expect(knownSpeakerReferences.map((key) => path.posix.dirname(key))).toEqual([
      path.posix.dirname(audioKey),
      path.posix.dirname(audioKey),
    ]);
    const stored = await Promise.all(
      knownSpeakerReferences.map(async (key) => fs.readFileSync(await ctx.storage.localPath(key), 'utf8')),
    );
    expect(stored).toEqual(['agent clip', 'customer clip']);
    await now.end(() => undefined);
    for (const key of knownSpeakerReferences) expect(await ctx.storage.stat(key)).toBeNull();
  });

  it('stores no clip for a name of a library voice (its prints are used), only the others', async () => {
    ctx = context(engine('pocketsphinx', ['en'], false), true);
    const storage = ctx.storage;
    const stored: string[] = [];
    const put: typeof storage.put = (key, source, options) => {
      stored.push(key);
      return storage.put(key, source, options);
    };
    ctx.storage = Object.assign(Object.create(storage) as typeof storage, { put });
    const now = await session();
    const knownSpeakers = [
      { name: 'customer', mediaType: 'audio/wav', audio: Buffer.from('customer clip') },
      { name: ' receptionist ', mediaType: 'audio/wav', audio: Buffer.from('receptionist clip') },
    ];
    await now.run(request({ diarize: true, knownSpeakers }), new AbortController().signal);
    const { knownSpeakerNames, knownSpeakerReferences } = sent[0]!.payload as {
      knownSpeakerNames: string[];
      knownSpeakerReferences: (string | null)[];
    };
    expect(knownSpeakerNames).toEqual(['customer', ' receptionist ']);
    expect(knownSpeakerReferences[1]).toBeNull();
    expect(stored.filter((key) => key.includes('reference'))).toEqual([knownSpeakerReferences[0]]);
    expect(fs.readFileSync(await ctx.storage.localPath(knownSpeakerReferences[0]!), 'utf8')).toBe('customer clip');
    await now.end(() => undefined);
  });

  it('answers a disk that fills while storing a reference clip as insufficient storage, before any job', async () => {
    ctx = context(engine('pocketsphinx', ['en'], false), true);
    const now = await session();
    const storage = ctx.storage;
    const put: typeof storage.put = (key, source, options) =>
      key.includes('reference')
        ? Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))
        : storage.put(key, source, options);
    ctx.storage = Object.assign(Object.create(storage) as typeof storage, { put });
    const knownSpeakers = [{ name: 'agent', mediaType: 'audio/wav', audio: Buffer.from('agent clip') }];
    const error = await refusal(now.run(request({ diarize: true, knownSpeakers }), new AbortController().signal));
    expect(error).toMatchObject({ statusCode: 507, code: 'INSUFFICIENT_STORAGE' });
    expect(error.message).toMatch(/ran out of disk space/);
    expect(sent).toEqual([]);
  });

  it('refuses diarized_json where the server separates no speakers, naming response_format', async () => {
    ctx = context(engine('pocketsphinx', ['en'], false), false);
    const error = await refusal((await session()).run(request({ diarize: true }), new AbortController().signal));
    expect(error).toMatchObject({ code: 'UNSUPPORTED_OPTION', field: 'response_format' });
    expect(error.message).toMatch(/diarized_json needs speaker separation/);
    expect(sent).toEqual([]);
  });

  it('refuses a form without a file, and an empty file', async () => {
    ctx = context(engine('pocketsphinx', ['en'], false), false);
    const none = await TranscribeNow.begin(ctx, { teamId: 'team' } as never, null);
    expect(await refusal(none.checkUpload())).toMatchObject({
      field: 'file',
      message: expect.stringMatching(/Missing the "file" field/),
    });
    const empty = await TranscribeNow.begin(ctx, { teamId: 'team' } as never, null);
    await empty.storeUpload('empty.wav', Readable.from([]));
    expect(await refusal(empty.run(request(), new AbortController().signal))).toMatchObject({
      field: 'file',
      message: 'The uploaded file is empty.',
    });
  });
});
