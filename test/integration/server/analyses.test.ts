// Summary, emotion and translation over real HTTP on a transcription of real speech, with the embedded
// engines; and translation into a language apertium lacks through an OpenAI-compatible endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMOTION_LABELS } from '../../../src-shared/analysis.js';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { startFakeChatServer, type FakeChatServer } from '../../support/fake-chat-server.js';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import {
  rawRequest,
  startTestServer,
  transcribeFile,
  uploadFile,
  waitForStatus,
  type TestServer,
} from '../../support/test-server.js';

let server: TestServer;
let key: string;
let id: string;
let meetingWav: string;

async function completedTranscription(target: TestServer, apiKey: string): Promise<string> {
  const ticket = await uploadFile(target, apiKey, meetingWav, { language: 'en' });
  await target.api(apiKey, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
  const done = await waitForStatus(target, apiKey, ticket.transcription_id, ['COMPLETED', 'FAILED']);
  expect(done.json.status).toBe('COMPLETED');
  return ticket.transcription_id;
}

/** Polls a status_url until the analysis is no longer IN_PROGRESS. */
async function settle(target: TestServer, apiKey: string, statusUrl: string) {
  for (;;) {
    const response = await fetch(statusUrl, { headers: { 'x-api-key': apiKey } });
    const body = await response.json();
    if (body.status !== 'IN_PROGRESS') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme', 'alice', ['DELETE']);
  meetingWav = await concatWithSilence(
    [
      await synthesizeSpeech('good morning everyone thank you for coming'),
      await synthesizeSpeech('we decided to launch the new website next week'),
      await synthesizeSpeech('john will send the budget report by friday'),
    ],
    1,
  );
  id = await completedTranscription(server, key);
});
afterAll(() => server.close());

const route = (kind: string, query = '') => `/api/v1/transcriptions/${id}/${kind}${query}`;

describe('translation targets (issue 27: a picker by language name learns them over HTTP)', () => {
  it("lists the installed apertium pairs from the transcript's language as offline, and no LLM without an endpoint", async () => {
    const response = await server.api(key, 'GET', route('translate/targets'));
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      transcription_id: id,
      source_language: 'en',
      llm: [],
      llm_any_language: false,
    });
    const offline = response.json.offline as string[];
    expect(offline).toContain('es');
    expect(offline).not.toContain('en');
    expect(offline).not.toContain('ja');
    expect([...offline].sort()).toEqual(offline);
  });

  it('is described in the OpenAPI document as an extension', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const operation = doc.paths['/api/v1/transcriptions/{transcription_id}/translate/targets']!;
    expect(Object.keys(operation)).toEqual(['get']);
    expect(operation.get!.summary).toMatch(/^Extension: /);
  });

  it("answers another team's transcription, unknown and malformed ids as unknown, whatever headers claim", async () => {
    const otherKey = await server.key('globex', 'mallory');
    const forged: Record<string, string>[] = [
      {},
      { 'x-team-id': 'acme' },
      { 'x-user-id': 'alice', 'x-forwarded-for': '127.0.0.1' },
    ];
    for (const headers of forged) {
      const theirs = await rawRequest(server, otherKey, 'GET', route('translate/targets'), undefined, headers);
      expect(theirs.status).toBe(404);
      expect(theirs.json).toMatchObject({
        error_code: ErrorCode.TRANSCRIPTION_NOT_FOUND,
        error_id: expect.any(String),
      });
      expect(JSON.stringify(theirs.json)).not.toContain('"offline"');
    }
    for (const bad of ['nope', 'x'.repeat(5000), '%00', '..%2F..%2Fmodels', encodeURIComponent("' or 1=1 --")]) {
      const response = await server.api(key, 'GET', `/api/v1/transcriptions/${bad}/translate/targets`);
      expect([400, 404, 414]).toContain(response.status);
      expect(response.json).toMatchObject({ error_code: expect.any(Number), error_message: expect.any(String) });
      expect(response.json.offline).toBeUndefined();
    }
    const anonymous = await fetch(`${server.url}${route('translate/targets')}`);
    expect(anonymous.status).toBe(401);
    const forgedKey = await rawRequest(server, 'kk_not_a_real_key', 'GET', route('translate/targets'), undefined, {
      'x-team-id': 'acme',
    });
    expect(forgedKey.status).toBe(401);
    // Only GET: a body sent with another method changes nothing.
    const posted = await rawRequest(server, key, 'POST', route('translate/targets'), { offline: ['ja'] });
    expect(posted.status).toBe(405);
    expect(posted.json).toMatchObject({ error_code: expect.any(Number), error_message: expect.any(String) });
    expect((await server.api(key, 'GET', route('translate/targets'))).json.offline).not.toContain('ja');
  });
});

describe('analysis requests', () => {
  it('answers 404 before any request, and 409 before the transcription is COMPLETED', async () => {
    for (const kind of ['summary', 'emotion', 'translate']) {
      const response = await server.api(key, 'GET', route(kind));
      expect(response.status).toBe(404);
      expect(response.json.error_code).toBe(ErrorCode.ANALYSIS_NOT_FOUND);
    }
    const ticket = await server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename: 'pending.wav' });
    const early = await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.json.transcription_id}/summary`);
    expect(early.status).toBe(409);
    expect(early.json.error_code).toBe(ErrorCode.TRANSCRIPTION_NOT_COMPLETED);
  });

  it('summarizes: acknowledgment, status_url, then a summary with traceable items', async () => {
    const ack = await server.api(key, 'POST', route('summary'));
    expect(ack.status).toBe(200);
    expect(ack.json).toEqual({ transcription_id: id, is_async: true, status_url: `${server.url}${route('summary')}` });
    const result = await settle(server, key, ack.json.status_url);
    expect(result).toMatchObject({ transcription_id: id, status: 'COMPLETED', engine: 'textrank', error: null });
    expect(result.summarized_text).toMatch(/Action items:/);
    expect(result.summarized_text).toMatch(/report/);
    expect(result.action_items.length).toBeGreaterThanOrEqual(1);
    for (const item of [...result.action_items, ...result.key_points, ...result.decisions]) {
      expect(item).toMatchObject({
        segment_id: expect.any(Number),
        start: expect.any(Number),
        end: expect.any(Number),
        text: expect.any(String),
      });
    }
    expect(result.decisions.map((d: any) => d.text).join(' ')).toMatch(/decided|launch/);
  });

  // The tester's one-sentence recording (Debian's pocketsphinx test clip) was summarized as "Nothing was
  // said in this recording.": no unit had three content words. The overview says what was said.
  it('summarizes a one-sentence real recording by what was said', async () => {
    const clip = '/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav';
    const ticket = await uploadFile(server, key, clip, { language: 'en' });
    await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
    const done = await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED']);
    expect(done.json.status).toBe('COMPLETED');
    const document = await (await fetch(done.json.transcription_path)).json();
    expect(document.text).toMatch(/amiable/);
    const ack = await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/summary`);
    expect(ack.status).toBe(200);
    const result = await settle(server, key, ack.json.status_url);
    expect(result.status).toBe('COMPLETED');
    expect(result.overview).not.toMatch(/Nothing was said/);
    expect(result.overview.toLowerCase()).toContain(
      document.text
        .trim()
        .toLowerCase()
        .replace(/[.!?]$/, ''),
    );
  });

  it('re-runs an analysis when posted again', async () => {
    const first = await server.api(key, 'GET', route('summary'));
    await server.api(key, 'POST', route('summary'));
    const rerun = await settle(server, key, `${server.url}${route('summary')}`);
    expect(rerun.status).toBe('COMPLETED');
    expect(rerun.requested_at > first.json.requested_at).toBe(true);
  });

  it('analyses emotion per segment and for the whole transcript', async () => {
    const ack = await server.api(key, 'POST', route('emotion'));
    const result = await settle(server, key, ack.json.status_url);
    expect(result.status).toBe('COMPLETED');
    const document = await (
      await fetch((await server.api(key, 'GET', `/api/v1/transcriptions/${id}`)).json.transcription_path)
    ).json();
    expect(result.emotions).toHaveLength(document.segments.length + 1);
    const whole = result.emotions.find((e: any) => e.segment_id === null);
    expect(whole).toMatchObject({ start: 0, end: document.duration });
    for (const entry of result.emotions) {
      expect(Object.keys(entry.scores).sort()).toEqual([...EMOTION_LABELS].sort());
      expect(EMOTION_LABELS).toContain(entry.label);
      expect(entry.score).toBe(entry.scores[entry.label]);
    }
  });

  it('translates segment by segment into Spanish, aligned with the transcript', async () => {
    const ack = await server.api(key, 'POST', route('translate'), { language: 'es' });
    expect(ack.json.status_url).toBe(`${server.url}${route('translate', '?language=es')}`);
    const result = await settle(server, key, ack.json.status_url);
    expect(result).toMatchObject({ status: 'COMPLETED', language: 'es', source_language: 'en', engine: 'apertium' });
    expect(result.translated_text).toMatch(/semana|informe|viernes/);
    const document = await (
      await fetch((await server.api(key, 'GET', `/api/v1/transcriptions/${id}`)).json.transcription_path)
    ).json();
    expect(result.segments.map((s: any) => [s.segment_id, s.start, s.end])).toEqual(
      document.segments.map((s: any) => [s.id, s.start, s.end]),
    );
    // The latest translation without ?language=, a given one with it, 404 for one never requested.
    expect((await server.api(key, 'GET', route('translate'))).json.language).toBe('es');
    expect((await server.api(key, 'GET', route('translate', '?language=fr'))).status).toBe(404);
  });

  it('refuses bad or unsupported target languages, listing the supported ones', async () => {
    const invalid = await server.api(key, 'POST', route('translate'), { language: 'spanish' });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error_code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(invalid.json.field).toBe('language');
    const missing = await server.api(key, 'POST', route('translate'), {});
    expect(missing.status).toBe(400);
    expect(missing.json.field).toBe('language');
    const unsupported = await server.api(key, 'POST', route('translate'), { language: 'ja' });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json.error_code).toBe(ErrorCode.UNSUPPORTED_LANGUAGE);
    expect(unsupported.json.field).toBe('language');
    expect(unsupported.json.error_message).toMatch(/Supported targets from "en": .*es/);
  });

  it('deletes analyses with their transcription', async () => {
    const count = async () =>
      (
        await server.runtime.db.kysely
          .selectFrom('analyses')
          .select('kind')
          .where('transcription_id', '=', id)
          .execute()
      ).length;
    expect(await count()).toBeGreaterThanOrEqual(3);
    expect((await server.api(key, 'DELETE', `/api/v1/transcriptions/${id}`)).status).toBe(200);
    expect(await count()).toBe(0);
  });
});

describe('LLM translation engine', () => {
  let chat: FakeChatServer;
  let llmServer: TestServer;
  let refuseCredentials = false;

  beforeAll(async () => {
    chat = await startFakeChatServer((request) => {
      if (refuseCredentials) return { status: 401, raw: JSON.stringify({ error: { message: 'Incorrect API key' } }) };
      const prompt = request.body.messages.map((m) => m.content).join('\n');
      const { lines } = JSON.parse(prompt.slice(prompt.indexOf('{"lines"'))) as {
        lines: Array<{ id: number; text: string }>;
      };
      return { content: JSON.stringify({ translations: lines.map((l) => ({ id: l.id, text: `FR(${l.text})` })) }) };
    });
    llmServer = await startTestServer({
      env: {
        KIKITORI_LLM_BASE_URL: chat.baseUrl,
        KIKITORI_LLM_MODEL: 'test-model',
        KIKITORI_LLM_API_KEY: 'sk-test',
        KIKITORI_SUMMARY_ENGINE: 'local',
        KIKITORI_EMOTION_ENGINE: 'local',
      },
    });
  });
  afterAll(async () => {
    await llmServer.close();
    await chat.close();
  });

  it('translates into a language apertium lacks through the configured endpoint', async () => {
    const llmKey = await llmServer.key('acme');
    const transcriptionId = await completedTranscription(llmServer, llmKey);
    const ack = await llmServer.api(llmKey, 'POST', `/api/v1/transcriptions/${transcriptionId}/translate`, {
      language: 'fr',
    });
    expect(ack.status).toBe(200);
    const result = await settle(llmServer, llmKey, ack.json.status_url);
    expect(result).toMatchObject({ status: 'COMPLETED', language: 'fr' });
    expect(result.segments.every((s: any) => s.text.startsWith('FR('))).toBe(true);
    expect(chat.requests[0]!.body.model).toBe('test-model');
    expect(chat.requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(chat.requests[0]!.url).toBe(`${new URL(chat.baseUrl).pathname.replace(/\/$/, '')}/chat/completions`);
  });

  it('lists every target as going through the LLM when the endpoint comes first (issue 27)', async () => {
    const llmKey = await llmServer.key('acme');
    const transcriptionId = await completedTranscription(llmServer, llmKey);
    const response = await llmServer.api(llmKey, 'GET', `/api/v1/transcriptions/${transcriptionId}/translate/targets`);
    expect(response.status).toBe(200);
    // The endpoint is preferred (KIKITORI_TRANSLATION_ENGINE defaults to llm), so nothing runs offline.
    expect(response.json).toMatchObject({ source_language: 'en', offline: [], llm: [], llm_any_language: true });
  });

  it('fails a translation the service refuses with a closed code beside its text (issue 27)', async () => {
    const llmKey = await llmServer.key('acme');
    const transcriptionId = await completedTranscription(llmServer, llmKey);
    refuseCredentials = true;
    try {
      const ack = await llmServer.api(llmKey, 'POST', `/api/v1/transcriptions/${transcriptionId}/translate`, {
        language: 'fr',
      });
      const result = await settle(llmServer, llmKey, ack.json.status_url);
      expect(result).toMatchObject({
        status: 'FAILED',
        error: expect.stringMatching(/refused this server's credentials/),
        error_code: 'unavailable',
      });
    } finally {
      refuseCredentials = false;
    }
  });
});

describe('LLM summary engine (issue 27 item 10)', () => {
  let chat: FakeChatServer;
  let llmServer: TestServer;

  beforeAll(async () => {
    chat = await startFakeChatServer(() => ({
      content: JSON.stringify({
        overview: 'The website launches next week.',
        action_items: [{ text: 'Send the budget report.', owner: 'Aiko Tanaka', due: 'by Friday', segment_id: 0 }],
      }),
    }));
    llmServer = await startTestServer({
      env: { KIKITORI_LLM_BASE_URL: chat.baseUrl, KIKITORI_LLM_MODEL: 'test-model', KIKITORI_SUMMARY_ENGINE: 'llm' },
    });
  });
  afterAll(async () => {
    await llmServer.close();
    await chat.close();
  });

  it('sends the speakers by the names the team gave them, so owners come back as names', async () => {
    const llmKey = await llmServer.key('acme');
    const transcriptionId = await transcribeFile(llmServer, llmKey, meetingWav, { language: 'en', num_speakers: 1 });
    const revisions = `/api/v1/transcriptions/${transcriptionId}/revisions`;
    const latest = (await llmServer.api(llmKey, 'GET', revisions)).json.latest_revision as number;
    const { document } = (await llmServer.api(llmKey, 'GET', `${revisions}/${latest}`)).json;
    const label = document.segments.find((s: { speaker: string | null }) => s.speaker)?.speaker as string;
    expect(label).toMatch(/^SPEAKER_/);
    const named = await llmServer.api(llmKey, 'POST', revisions, {
      base_revision: latest,
      operations: [{ kind: 'speaker-name', speaker: label, name: 'Aiko Tanaka' }],
    });
    expect(named.status).toBe(200);

    const ack = await llmServer.api(llmKey, 'POST', `/api/v1/transcriptions/${transcriptionId}/summary`);
    const result = await settle(llmServer, llmKey, ack.json.status_url);
    expect(result).toMatchObject({ status: 'COMPLETED', engine: 'llm' });
    const prompt = chat.requests
      .at(-1)!
      .body.messages.map((m) => m.content)
      .join('\n');
    const lines = prompt.split('\n').filter((line) => /^\[\d+\]/.test(line));
    expect(lines.length).toBe(document.segments.length);
    for (const line of lines) expect(line).toMatch(/^\[\d+\] \S+ Aiko Tanaka: /);
    expect(prompt).not.toContain(label);
    expect(result.action_items.map((a: { owner: string | null }) => a.owner)).toEqual(['Aiko Tanaka']);
  });
});
