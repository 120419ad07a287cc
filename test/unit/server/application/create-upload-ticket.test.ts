// The "create an upload ticket" use case on its own: engines that say what they can do (never run here)
// and a service that records the ticket it is asked for: the repositories are the boundary this test is not about.
import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../../src-shared/limits.js';
import type { AppContext } from '../../../../src-server/app-context.js';
import {
  createUploadTicket,
  type UploadTicketRequest,
} from '../../../../src-server/application/create-upload-ticket.js';
import type { TicketRequest } from '../../../../src-server/domain/transcription-service.js';
import type { SpeechEngine } from '../../../../src-server/engines/speech/speech-engine.js';
import { AppError } from '../../../../src-server/application/errors.js';

const caller = { teamId: 'team', userId: 'user' } as never;
let tickets: TicketRequest[];

function context(languages: string[], detects: boolean, separates: boolean): AppContext {
  const capabilities = { languages, wordTimestamps: true, customVocabulary: false, speakerSeparation: separates };
  const engine: SpeechEngine = Object.assign(
    { name: 'engine', capabilities, recognize: () => Promise.reject(new Error('not run')) },
    detects ? { detectsLanguage: true } : {},
  );
  return {
    config: { uploads: { teamQuotaBytes: undefined } },
    engines: {
      speechFor: () => engine,
      unsupportedReason: ({ languages: asked, wantsSpeakers }: { languages: string[]; wantsSpeakers: boolean }) => {
        const missing = asked.filter((l) => !languages.includes(l));
        if (missing.length > 0) return { code: 'language', message: `${missing.join(', ')} is not recognized` };
        return wantsSpeakers && !separates ? { code: 'option', message: 'no speakers here' } : null;
      },
    },
    storageUsage: { quotaOverride: () => Promise.resolve(undefined) },
    dictionaries: { get: () => Promise.resolve(null) },
    service: {
      createTicket: (_caller: unknown, ticket: TicketRequest) => {
        tickets.push(ticket);
        return Promise.resolve({ transcriptionId: 't1', languages: ticket.languages });
      },
    },
  } as unknown as AppContext;
}

const none = { numSpeakers: null, minSpeakers: null, maxSpeakers: null };
const request = (over: Partial<UploadTicketRequest> = {}): UploadTicketRequest => ({
  filename: 'a.wav',
  dictionaryId: null,
  languages: [],
  model: 'default',
  speakers: none,
  words: [],
  ...over,
});

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected an AppError, got ${String(error)}`);
}

beforeEach(() => {
  tickets = [];
});

describe('create an upload ticket', () => {
  it('records no language where the engine detects it, the first where it does not, and those asked for', async () => {
    await createUploadTicket(context(['en', 'ja'], true, false), caller, request());
    await createUploadTicket(context(['ja', 'en'], false, false), caller, request());
    await createUploadTicket(context(['ja', 'en'], false, false), caller, request({ languages: ['en'] }));
    expect(tickets.map((t) => t.languages)).toEqual([[], ['ja'], ['en']]);
  });

  it(`takes speaker counts up to ${LIMITS.speakers.max}, and refuses min above max before any ticket`, async () => {
    const ctx = context(['en'], false, true);
    await createUploadTicket(ctx, caller, request({ speakers: { ...none, maxSpeakers: LIMITS.speakers.max } }));
    expect(tickets[0]).toMatchObject({ numSpeakers: null, minSpeakers: null, maxSpeakers: LIMITS.speakers.max });
    expect(
      await refusal(
        createUploadTicket(ctx, caller, request({ speakers: { ...none, minSpeakers: 3, maxSpeakers: 2 } })),
      ),
    ).toMatchObject({ field: 'min_speakers' });
    expect(
      await refusal(
        createUploadTicket(ctx, caller, request({ speakers: { ...none, numSpeakers: LIMITS.speakers.max + 1 } })),
      ),
    ).toMatchObject({ field: 'num_speakers' });
    expect(tickets).toHaveLength(1);
  });

  it("refuses a language the engine does not know, speakers where none are separated (naming the field sent), and another team's dictionary", async () => {
    expect(
      await refusal(createUploadTicket(context(['en'], false, false), caller, request({ languages: ['ja'] }))),
    ).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', field: 'language' });
    expect(
      await refusal(
        createUploadTicket(context(['en'], false, false), caller, request({ speakers: { ...none, maxSpeakers: 3 } })),
      ),
    ).toMatchObject({ code: 'UNSUPPORTED_OPTION', field: 'max_speakers' });
    expect(
      await refusal(createUploadTicket(context(['en'], false, false), caller, request({ dictionaryId: 'theirs' }))),
    ).toMatchObject({ code: 'DICTIONARY_NOT_FOUND' });
    expect(tickets).toEqual([]);
  });
});
