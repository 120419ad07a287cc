// Japanese end to end (issue 10) through the remote OpenAI-compatible engine, pointed at a real local
// HTTP server that answers Japanese verbose_json: the dictionary's words and kana readings reach the
// service's prompt; forced replacements apply across the service's token boundaries with sane word
// timings; the transcript is unspaced and its subtitles break at sentence ends; and Japanese summary and
// emotion come back, from the local engines and through an LLM endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { startFakeChatServer, type FakeChatServer } from '../../support/fake-chat-server.js';
import { startVerboseJsonServer, type VerboseJsonServer } from '../../support/openai-test-server.js';
import {
  engineRegistryFromEnv,
  startTestServer,
  uploadFile,
  waitForStatus,
  type TestServer,
} from '../../support/test-server.js';

const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/** What whisper answers for Japanese: words are short pieces of the text, with no spaces between them. */
const word = (w: string, start: number, end: number) => ({ word: w, start, end, probability: 0.9 });
const VERBOSE_JSON = {
  task: 'transcribe',
  language: 'japanese',
  duration: 5,
  text: '今日は聞きとりの新しい機能について話します。来週リリースすることに決まりました。田中さんは金曜日までに資料を送ってください。とても嬉しいです。',
  segments: [
    { id: 0, start: 0, end: 1.6, text: '今日は聞きとりの新しい機能について話します。' },
    { id: 1, start: 1.6, end: 3.0, text: '来週リリースすることに決まりました。' },
    { id: 2, start: 3.0, end: 4.6, text: '田中さんは金曜日までに資料を送ってください。とても嬉しいです。' },
  ],
  words: [
    word('今日', 0, 0.3),
    word('は', 0.3, 0.4),
    word('聞き', 0.4, 0.7),
    word('とり', 0.7, 0.9),
    word('の', 0.9, 1.0),
    word('新しい', 1.0, 1.2),
    word('機能', 1.2, 1.3),
    word('について', 1.3, 1.45),
    word('話します。', 1.45, 1.6),
    word('来週', 1.6, 1.9),
    word('リリース', 1.9, 2.3),
    word('することに', 2.3, 2.6),
    word('決まりました。', 2.6, 3.0),
    word('田中', 3.0, 3.2),
    word('さんは', 3.2, 3.4),
    word('金曜日', 3.4, 3.6),
    word('までに', 3.6, 3.7),
    word('資料を', 3.7, 3.9),
    word('送ってください。', 3.9, 4.2),
    word('とても', 4.2, 4.35),
    word('嬉しいです。', 4.35, 4.6),
  ],
};

let asr: VerboseJsonServer;
let chat: FakeChatServer;
let wav: string;

beforeAll(async () => {
  asr = await startVerboseJsonServer(VERBOSE_JSON);
  // The LLM answers in the language of the transcript it was given, as a real model asked to would.
  chat = await startFakeChatServer((request) => {
    const prompt = request.body.messages.map((m) => m.content).join('\n');
    if (prompt.includes('Rate the emotion')) {
      const ids = [...prompt.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
      return {
        content: JSON.stringify({
          segments: ids.map((id) => ({
            segment_id: id,
            scores: { joy: id === 2 ? 0.8 : 0.1, neutral: id === 2 ? 0.2 : 0.9 },
          })),
        }),
      };
    }
    return {
      content: JSON.stringify({
        overview: '聞き取りの新機能を来週リリースすることが決まりました。',
        key_points: [{ text: '聞き取りの新しい機能について話しました。', segment_id: 0 }],
        action_items: [{ text: '資料を送る', owner: '田中', due: '金曜日', segment_id: 2 }],
        decisions: [{ text: '来週リリースする', segment_id: 1 }],
        dates: [],
      }),
    };
  });
  wav = await concatWithSilence(
    [await synthesizeSpeech('the budget meeting moved to next week'), await synthesizeSpeech('thank you everyone')],
    1,
  );
});
afterAll(async () => {
  await asr.close();
  await chat.close();
});

async function settle(server: TestServer, key: string, statusUrl: string) {
  for (;;) {
    const response = await fetch(statusUrl, { headers: { 'x-api-key': key } });
    const body = await response.json();
    if (body.status !== 'IN_PROGRESS') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startServer(extraEnv: Record<string, string>): Promise<TestServer> {
  const env = {
    KIKITORI_ENGINE_DEFAULT: 'remote',
    KIKITORI_REMOTE_ASR_BASE_URL: asr.baseUrl,
    KIKITORI_REMOTE_ASR_API_KEY: 'sk-local',
    KIKITORI_REMOTE_ASR_LANGUAGES: 'ja,en',
  };
  return startTestServer({ env: extraEnv, runtime: { engines: engineRegistryFromEnv(env) } });
}

/** A Japanese transcription with a dictionary of words with readings and forced replacements. */
async function transcribeJapanese(
  server: TestServer,
  key: string,
): Promise<{ id: string; path: string; document: TranscriptDocument }> {
  const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', {
    name: '製品用語',
    words: [
      { word: '聞き取り', reading: 'ききとり' },
      { word: '議事録', reading: 'ぎじろく' },
      { word: 'Kikitori', reading: 'キキトリ' },
    ],
  });
  expect(dictionary.status).toBe(200);
  const dictionaryId = dictionary.json.dictionary_id as string;
  for (const rule of [
    { pattern: '聞きとり', replacement: '聞き取り' },
    { pattern: '新しい機能', replacement: '新機能' },
  ]) {
    const added = await server.api(key, 'POST', `/api/v1/dictionaries/${dictionaryId}/blacklist_words`, rule);
    expect(added.status).toBe(200);
  }
  const ticket = await uploadFile(server, key, wav, { language: 'ja', dictionary_id: dictionaryId });
  await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
  const done = await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED']);
  expect(done.json.status, done.json.failure_reason).toBe('COMPLETED');
  const document = (await (await fetch(done.json.transcription_path)).json()) as TranscriptDocument;
  return { id: ticket.transcription_id, path: done.json.transcription_path as string, document };
}

describe('Japanese through the remote OpenAI-compatible engine', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  let document: TranscriptDocument;
  let transcriptPath: string;

  beforeAll(async () => {
    server = await startServer({ KIKITORI_SUMMARY_ENGINE: 'local', KIKITORI_EMOTION_ENGINE: 'local' });
    key = await server.key('acme');
    ({ id, document, path: transcriptPath } = await transcribeJapanese(server, key));
  });
  afterAll(() => server.close());

  it("sends the dictionary's words with their kana readings in the prompt, and the language", () => {
    const request = asr.received.at(-1)!;
    expect(request.fields.language).toEqual(['ja']);
    expect(request.fields.prompt).toEqual(['用語: 聞き取り（ききとり）、議事録（ぎじろく）、Kikitori（キキトリ）。']);
    expect(request.fields.response_format).toEqual(['verbose_json']);
    expect(request.fileBytes).toBeGreaterThan(44);
  });

  it("applies forced replacements across the engine's token boundaries, with sane word timings", () => {
    expect(document.language).toBe('ja');
    expect(document.segments[0]!.text).toBe('今日は聞き取りの新機能について話します。');
    expect(document.segments[0]!.words.map((w) => w.word)).toEqual([
      '今日',
      'は',
      '聞き取り',
      'の',
      '新機能',
      'について',
      '話します。',
    ]);
    // The merged words span the words they replaced: 聞き (0.4) + とり (0.9), 新しい (1.0) + 機能 (1.3).
    expect(document.segments[0]!.words[2]).toMatchObject({ word: '聞き取り', start: 0.4, end: 0.9 });
    expect(document.segments[0]!.words[4]).toMatchObject({ word: '新機能', start: 1.0, end: 1.3 });
    const words = document.segments.flatMap((s) => s.words);
    expect(words.every((w, i) => w.end >= w.start && (i === 0 || w.start >= words[i - 1]!.end))).toBe(true);
    expect(document.replacements).toEqual(
      expect.arrayContaining([
        { pattern: '聞きとり', replacement: '聞き取り', count: 1, segment_ids: [0] },
        { pattern: '新しい機能', replacement: '新機能', count: 1, segment_ids: [0] },
      ]),
    );
  });

  it('keeps the text unspaced, and breaks subtitle lines at sentence ends', async () => {
    expect(document.text).toBe(
      '今日は聞き取りの新機能について話します。来週リリースすることに決まりました。田中さんは金曜日までに資料を送ってください。とても嬉しいです。',
    );
    const srt = await fetch(`${transcriptPath}&format=srt`);
    expect(srt.status).toBe(200);
    // Cues of at most two lines of 13 characters (decision 0021), cut at the engine's words, sentences
    // ending a cue; timed from the words, 80 ms apart, the last held for 5/6 s.
    const text = await srt.text();
    expect(text).toContain('00:00:03,000 --> 00:00:04,120\n田中さんは金曜日までに\n資料を送ってください。\n');
    expect(text).toContain('00:00:04,200 --> 00:00:05,033\nとても嬉しいです。\n');
    expect(text.replace(/^\d+$|^.*-->.*$|\n/gm, '')).toBe(document.text);
  });

  it('summarizes in Japanese with the local engine', async () => {
    const ack = await server.api(key, 'POST', `/api/v1/transcriptions/${id}/summary`);
    expect(ack.status).toBe(200);
    const result = await settle(server, key, ack.json.status_url);
    expect(result.status, JSON.stringify(result.error)).toBe('COMPLETED');
    expect(result.summarized_text).toMatch(JAPANESE);
    expect(result.summarized_text).toContain('アクションアイテム：');
    expect(result.summarized_text).not.toMatch(/Key points:|Action items:|Decisions:|None identified/);
    expect(result.action_items.map((a: { text: string }) => a.text).join('')).toContain('送ってください');
    expect(result.decisions.map((d: { text: string }) => d.text).join('')).toContain('決まりました');
  });

  it('analyses emotion in Japanese with the local engine', async () => {
    const ack = await server.api(key, 'POST', `/api/v1/transcriptions/${id}/emotion`);
    const result = await settle(server, key, ack.json.status_url);
    expect(result.status, JSON.stringify(result.error)).toBe('COMPLETED');
    expect(result.emotions).toHaveLength(document.segments.length + 1);
    const last = result.emotions.find((e: { segment_id: number | null }) => e.segment_id === 2);
    expect(last.label).toBe('joy');
  });
});

describe('Japanese summary and emotion through an LLM endpoint', () => {
  it("asks for Japanese and returns the model's Japanese results, with Japanese headings", async () => {
    const server = await startServer({
      KIKITORI_LLM_BASE_URL: chat.baseUrl,
      KIKITORI_LLM_MODEL: 'test-model',
      KIKITORI_LLM_API_KEY: 'sk-test',
    });
    try {
      const key = await server.key('acme');
      const { id } = await transcribeJapanese(server, key);
      const summaryAck = await server.api(key, 'POST', `/api/v1/transcriptions/${id}/summary`);
      const summary = await settle(server, key, summaryAck.json.status_url);
      expect(summary.status, JSON.stringify(summary.error)).toBe('COMPLETED');
      const summaryPrompt = chat.requests
        .map((r) => r.body.messages.map((m) => m.content).join('\n'))
        .find((p) => p.includes('Summarise'))!;
      expect(summaryPrompt).toMatch(/Japanese/);
      expect(summaryPrompt).toContain('聞き取りの新機能');
      expect(summary.summarized_text).toContain('聞き取りの新機能を来週リリースすることが決まりました。');
      expect(summary.summarized_text).toContain('- [00:03] 資料を送る（担当：田中、期限：金曜日）');
      expect(summary.summarized_text).toContain('決定事項：');

      const emotionAck = await server.api(key, 'POST', `/api/v1/transcriptions/${id}/emotion`);
      const emotion = await settle(server, key, emotionAck.json.status_url);
      expect(emotion.status, JSON.stringify(emotion.error)).toBe('COMPLETED');
      expect(emotion.emotions.find((e: { segment_id: number | null }) => e.segment_id === 2).label).toBe('joy');
    } finally {
      await server.close();
    }
  });
});
