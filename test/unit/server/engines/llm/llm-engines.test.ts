import { afterEach, describe, expect, it } from 'vitest';
import { EMOTION_LABELS } from '../../../../../src-shared/analysis.js';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import { LlmEmotionEngine, normaliseEmotionScores } from '../../../../../src-server/engines/llm/llm-emotion-engine.js';
import { LlmSummaryEngine } from '../../../../../src-server/engines/llm/llm-summary-engine.js';
import { LlmTranslationEngine } from '../../../../../src-server/engines/llm/llm-translation-engine.js';
import { OpenAiChatClient } from '../../../../../src-server/engines/llm/openai-chat-client.js';
import { meetingDocument, standupUnpunctuated } from '../../../../fixtures/meetings/meetings.js';
import {
  promptSegmentIds,
  startFakeChatServer,
  type FakeChatServer,
  type Handler,
} from '../../../../support/fake-chat-server.js';

let server: FakeChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(handler: Handler) {
  server = await startFakeChatServer(handler);
  return {
    server,
    client: new OpenAiChatClient({
      baseUrl: server.baseUrl,
      apiKey: 'sk-local',
      model: 'meeting-model',
      maxRetries: 0,
    }),
  };
}

const input = (document = standupUnpunctuated.document, language = 'en') => ({
  document,
  language,
  signal: new AbortController().signal,
});
const doc = standupUnpunctuated.document;
const seg = (id: number) => doc.segments[id]!;

describe('LlmSummaryEngine', () => {
  const answer = {
    overview: 'The team planned the database migration and its budget.',
    key_points: [
      { text: 'The database cluster is running out of disk space.', segment_id: 6 },
      { text: 'This one points nowhere.', segment_id: 999 },
    ],
    action_items: [
      { text: 'Alice will send the updated budget report.', owner: 'Alice', due: 'by Friday', segment_id: 8 },
      { text: 'Patch the staging servers.', owner: null, due: 'end of day', segment_id: '18' },
      { text: 'Someone will look into it.', owner: 'unknown', due: 'N/A', segment_id: 13 },
    ],
    decisions: [{ text: 'Run both clusters in parallel during the migration.', segment_id: 14 }],
    dates: [{ text: 'friday', segment_id: 8 }],
  };

  it('sends the transcript with segment ids and times, and links the answer back to the segments', async () => {
    const { server: s, client } = await clientFor(() => ({ content: JSON.stringify(answer) }));
    const engine = new LlmSummaryEngine({ client });
    expect(engine.languages).toBe('any');
    const result = await engine.summarize(input());

    expect(s.requests).toHaveLength(1);
    const request = s.requests[0]!;
    expect(request.body.model).toBe('meeting-model');
    expect(request.headers.authorization).toBe('Bearer sk-local');
    expect(request.body.response_format).toEqual({ type: 'json_object' });
    expect(request.body.messages[0]!.role).toBe('system');
    const prompt = s.prompt(0);
    expect(promptSegmentIds(prompt)).toEqual(doc.segments.map((x) => x.id));
    expect(prompt).toContain(
      `[8] 00:01:05.8-00:01:15.0 ${seg(8).text}`
        .replace('00:01:05.8', fmt(seg(8).start))
        .replace('00:01:15.0', fmt(seg(8).end)),
    );
    expect(prompt).toContain('English (en)');

    const { details } = result;
    expect(details.overview).toBe(answer.overview);
    expect(details.key_points).toEqual([
      { segment_id: 6, start: seg(6).start, end: seg(6).end, text: answer.key_points[0]!.text },
    ]);
    expect(details.action_items).toEqual([
      {
        segment_id: 8,
        start: seg(8).start,
        end: seg(8).end,
        text: 'Alice will send the updated budget report.',
        owner: 'Alice',
        due: 'by Friday',
      },
      {
        segment_id: 18,
        start: seg(18).start,
        end: seg(18).end,
        text: 'Patch the staging servers.',
        owner: null,
        due: 'end of day',
      },
      {
        segment_id: 13,
        start: seg(13).start,
        end: seg(13).end,
        text: 'Someone will look into it.',
        owner: null,
        due: null,
      },
    ]);
    expect(details.decisions[0]).toMatchObject({ segment_id: 14, start: seg(14).start });
    expect(details.dates).toEqual([{ segment_id: 8, start: seg(8).start, end: seg(8).end, text: 'friday' }]);
    const text = result.summarizedText;
    expect(text.startsWith(`${answer.overview}\n\nKey points:\n- [${mmss(seg(6).start)}] The database cluster`)).toBe(
      true,
    );
    expect(text).toContain(
      `Action items:\n- [${mmss(seg(8).start)}] Alice will send the updated budget report. (owner: Alice, due: by Friday)\n`,
    );
    expect(text).toContain(`- [${mmss(seg(18).start)}] Patch the staging servers. (due: end of day)\n`);
    expect(text).toContain(
      `Decisions:\n- [${mmss(seg(14).start)}] Run both clusters in parallel during the migration.`,
    );
  });

  it('sends the speakers by the names the team gave them or their recognized voice, and asks for owners as names', async () => {
    const document = {
      ...meetingDocument('named-llm', 'en', [
        { speaker: 'SPEAKER_1', text: 'I will send the revised budget to the board by Friday.' },
        { speaker: 'SPEAKER_2', text: "Let's move the budget meeting to Thursday." },
        { speaker: 'SPEAKER_3', text: 'Then you will book the room, Alice.' },
        { speaker: 'SPEAKER_4', text: 'We will check the catering.' },
      ]),
      speaker_names: { SPEAKER_1: 'Alice', SPEAKER_2: '  ' },
    };
    document.segments[2] = { ...document.segments[2]!, speaker_id: 'v1', speaker_name: 'Hanako' };
    const reply = {
      overview: 'The budget meeting moves to Thursday.',
      action_items: [
        { text: 'Send the revised budget to the board.', owner: 'Alice', due: 'by Friday', segment_id: 0 },
      ],
      decisions: [{ text: 'Move the budget meeting to Thursday.', segment_id: 1 }],
    };
    const { server: s, client } = await clientFor(() => ({ content: JSON.stringify(reply) }));
    const result = await new LlmSummaryEngine({ client }).summarize(input(document));

    const prompt = s.prompt(0);
    const lines = prompt.split('\n').filter((line) => /^\[\d+\]/.test(line));
    expect(lines.map((line) => line.replace(/^\[(\d+)\] \S+ /, '$1 '))).toEqual([
      '0 Alice: I will send the revised budget to the board by Friday.',
      // A blank name is no name: the label stays.
      "1 SPEAKER_2: Let's move the budget meeting to Thursday.",
      '2 Hanako: Then you will book the room, Alice.',
      '3 SPEAKER_4: We will check the catering.',
    ]);
    expect(prompt).toMatch(/the speaker's own name for "I will…", the name of the person addressed for "you will…"/);
    expect(prompt).toMatch(/for "we" write "we", never one person's name/);
    expect(prompt).toContain('proposals taken as the way forward ("let\'s move the meeting to Thursday")');
    expect(result.details.action_items.map((a) => a.owner)).toEqual(['Alice']);
    expect(result.details.decisions.map((d) => d.segment_id)).toEqual([1]);
  });

  it('asks again once after malformed JSON, then uses the good answer', async () => {
    const { server: s, client } = await clientFor((_, i) => ({
      content: i === 0 ? '{"overview": "cut off' : JSON.stringify(answer),
    }));
    const result = await new LlmSummaryEngine({ client }).summarize(input());
    expect(result.details.action_items).toHaveLength(3);
    expect(s.requests).toHaveLength(2);
    const retry = s.requests[1]!.body.messages;
    expect(retry[retry.length - 1]!.content).toMatch(/could not be used: .*Reply again with only the JSON object/);
  });

  it('fails with a clear error when the JSON stays malformed or has the wrong shape', async () => {
    const { server: s, client } = await clientFor((_, i) => ({
      content: i === 0 ? 'Sure! Here is the summary: the team met.' : '{"summary": "no overview field"}',
    }));
    const error = await new LlmSummaryEngine({ client }).summarize(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).kind).toBe('unavailable');
    expect((error as Error).message).toMatch(/language model gave an answer this server cannot use/);
    expect((error as EngineError).detail).toMatch(
      /model "meeting-model"\) returned JSON of the wrong shape for the summary of segments 0–21: "overview" is missing/,
    );
    expect(s.requests).toHaveLength(2);
  });

  it('summarises a long transcript in parts and combines them', async () => {
    const { server: s, client } = await clientFor((r) => {
      const prompt = r.body.messages.map((m) => m.content).join('\n');
      if (prompt.includes('Candidate key points')) {
        return {
          content: JSON.stringify({
            overview: 'Combined overview.',
            key_points: [{ text: 'A combined point.', segment_id: 12 }],
          }),
        };
      }
      const ids = promptSegmentIds(prompt);
      const first = ids[0]!;
      return {
        content: JSON.stringify({
          overview: `Part from ${first}.`,
          key_points: [{ text: `Point ${first}.`, segment_id: first }],
          action_items: [{ text: `Task ${first}.`, owner: null, due: null, segment_id: first }],
          decisions: [],
          dates: [],
        }),
      };
    });
    const result = await new LlmSummaryEngine({ client, maxCharsPerRequest: 1500 }).summarize(input());
    const parts = s.requests.length - 1;
    expect(parts).toBeGreaterThan(1);
    for (let i = 0; i < parts; i++) expect(s.prompt(i)).toContain(`This is part ${i + 1} of ${parts}`);
    // Every segment went to exactly one part.
    const sent = Array.from({ length: parts }, (_, i) => promptSegmentIds(s.prompt(i))).flat();
    expect(sent).toEqual(doc.segments.map((x) => x.id));
    expect(result.details.overview).toBe('Combined overview.');
    expect(result.details.key_points).toEqual([
      { segment_id: 12, start: seg(12).start, end: seg(12).end, text: 'A combined point.' },
    ]);
    expect(result.details.action_items).toHaveLength(parts);
  });

  it('reports a refused key', async () => {
    const { client } = await clientFor(() => ({ status: 401, raw: '{"error": {"message": "invalid api key"}}' }));
    await expect(new LlmSummaryEngine({ client }).summarize(input())).rejects.toMatchObject({
      kind: 'unavailable',
      detail: expect.stringMatching(/HTTP 401\): invalid api key/),
    });
  });
});

const mmss = (seconds: number) =>
  `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

function fmt(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${(seconds % 60).toFixed(1).padStart(4, '0')}`;
}

describe('LlmEmotionEngine', () => {
  const small = meetingDocument('emo', 'en', [
    { speaker: 'SPEAKER_1', text: 'this is wonderful news' },
    { speaker: 'SPEAKER_2', text: '' },
    { speaker: 'SPEAKER_2', text: 'i am furious about the delay' },
    { speaker: 'SPEAKER_1', text: 'the meeting is at ten' },
  ]);

  it('asks for the seven labels per segment and normalises the answer', async () => {
    const { server: s, client } = await clientFor(() => ({
      content: JSON.stringify({
        segments: [
          { segment_id: 0, scores: { joy: 0.9, neutral: 0.1 } },
          { segment_id: 2, scores: { anger: 80, neutral: 20 } }, // percentages
          { segment_id: 3, scores: { neutral: '0.5', joy: 0.5, surprise: 0 } },
          { segment_id: 42, scores: { joy: 1 } }, // not asked for: ignored
        ],
      }),
    }));
    const entries = await new LlmEmotionEngine({ client }).analyze(input(small));
    expect(s.requests).toHaveLength(1);
    const prompt = s.prompt(0);
    expect(promptSegmentIds(prompt)).toEqual([0, 2, 3]); // the empty segment is not sent
    expect(prompt).toContain('SPEAKER_2: i am furious about the delay');
    for (const label of EMOTION_LABELS) expect(prompt).toContain(label);
    expect(s.requests[0]!.body.response_format).toEqual({ type: 'json_object' });

    expect(entries).toHaveLength(5);
    const [e0, e1, e2, e3, whole] = entries;
    expect(e0).toMatchObject({ segment_id: 0, speaker: 'SPEAKER_1', label: 'joy', start: small.segments[0]!.start });
    expect(e0!.score).toBeCloseTo(0.9);
    expect(e1).toMatchObject({ segment_id: 1, label: 'neutral', score: 1 });
    expect(e2).toMatchObject({ segment_id: 2, label: 'anger' });
    expect(e2!.scores.anger).toBeCloseTo(0.8);
    expect(e3!.scores.neutral).toBeCloseTo(0.5);
    for (const e of entries) expect(EMOTION_LABELS.reduce((sum, l) => sum + e.scores[l], 0)).toBeCloseTo(1);
    expect(whole).toMatchObject({
      segment_id: null,
      speaker: null,
      start: small.segments[0]!.start,
      end: small.segments[3]!.end,
    });
  });

  it('asks again for segments the model skipped', async () => {
    const { server: s, client } = await clientFor((r) => {
      const ids = promptSegmentIds(r.body.messages.map((m) => m.content).join('\n'));
      // First answer forgets the last segment.
      const answered = ids.length > 1 ? ids.slice(0, -1) : ids;
      return {
        content: JSON.stringify({ segments: answered.map((id) => ({ segment_id: id, scores: { neutral: 1 } })) }),
      };
    });
    const entries = await new LlmEmotionEngine({ client }).analyze(input(small));
    expect(s.requests).toHaveLength(2);
    expect(promptSegmentIds(s.prompt(1))).toEqual([3]);
    expect(entries.filter((e) => e.segment_id !== null)).toHaveLength(4);
  });

  it('fails clearly on malformed JSON and on impossible scores', async () => {
    const { client } = await clientFor((_, i) => ({
      content: i < 2 ? 'not json at all' : '{"segments": [{"segment_id": 0, "scores": {"joy": "lots"}}]}',
    }));
    const engine = new LlmEmotionEngine({ client });
    await expect(engine.analyze(input(small))).rejects.toMatchObject({
      detail: expect.stringMatching(/returned malformed JSON for emotion scores of segments 0–3: no JSON object/),
    });
    await expect(engine.analyze(input(small))).rejects.toMatchObject({
      detail: expect.stringMatching(/the score for "joy" is not a number/),
    });
  });

  it('batches long transcripts', async () => {
    const { server: s, client } = await clientFor((r) => {
      const ids = promptSegmentIds(r.body.messages.map((m) => m.content).join('\n'));
      return {
        content: JSON.stringify({
          segments: ids.map((id) => ({ segment_id: id, scores: { neutral: 0.7, joy: 0.3 } })),
        }),
      };
    });
    const entries = await new LlmEmotionEngine({ client, maxSegmentsPerRequest: 8 }).analyze(input());
    expect(s.requests).toHaveLength(Math.ceil(doc.segments.length / 8));
    expect(entries).toHaveLength(doc.segments.length + 1);
  });

  it('reports a server error', async () => {
    const { client } = await clientFor(() => ({ status: 500, raw: '{"error": {"message": "model crashed"}}' }));
    await expect(new LlmEmotionEngine({ client }).analyze(input(small))).rejects.toMatchObject({
      kind: 'transient',
      detail: 'The LLM server failed (HTTP 500): model crashed.',
    });
  });
});

describe('normaliseEmotionScores', () => {
  it('fills missing labels, accepts a bare label and rejects all-zero scores', () => {
    expect(normaliseEmotionScores({ Joy: 2, sadness: 2 })).toMatchObject({ joy: 0.5, sadness: 0.5, neutral: 0 });
    expect(normaliseEmotionScores(undefined, 'fear')).toMatchObject({ fear: 1 });
    expect(() => normaliseEmotionScores({ joy: 0 })).toThrow('all scores are zero');
  });
});

describe('LlmTranslationEngine', () => {
  it('translates in numbered batches and keeps every segment aligned', async () => {
    const { server: s, client } = await clientFor((r) => {
      const prompt = r.body.messages.map((m) => m.content).join('\n');
      const { lines } = JSON.parse(prompt.slice(prompt.indexOf('{"lines"'))) as {
        lines: Array<{ id: number; text: string }>;
      };
      // Out of order, as models sometimes answer.
      return {
        content: JSON.stringify({ translations: lines.reverse().map((l) => ({ id: l.id, text: `ES(${l.text})` })) }),
      };
    });
    const engine = new LlmTranslationEngine({ client, maxSegmentsPerRequest: 5 });
    expect(engine.targets()).toBe('any');
    const result = await engine.translate(input(), 'es');
    expect(s.requests).toHaveLength(Math.ceil(doc.segments.length / 5));
    expect(s.prompt(0)).toContain('from English (en) into Spanish (es)');
    const { lines } = JSON.parse(s.prompt(0).slice(s.prompt(0).indexOf('{"lines"'))) as {
      lines: Array<{ id: number; start: string; end: string }>;
    };
    expect(lines.map((l) => l.id)).toEqual([0, 1, 2, 3, 4]);
    expect(lines[1]).toMatchObject({ start: fmt(seg(1).start), end: fmt(seg(1).end) });
    expect(result.segments.map((x) => [x.segment_id, x.start, x.end])).toEqual(
      doc.segments.map((x) => [x.id, x.start, x.end]),
    );
    expect(result.segments.map((x) => x.text)).toEqual(doc.segments.map((x) => `ES(${x.text})`));
    expect(result.translatedText.startsWith(`ES(${seg(0).text}) ES(${seg(1).text})`)).toBe(true);
  });

  it('asks again for missing lines and accepts an id-keyed object', async () => {
    const small = meetingDocument('tr', 'en', [{ text: 'good morning' }, { text: 'see you tomorrow' }]);
    const { server: s, client } = await clientFor((_, i) => ({
      content:
        i === 0
          ? JSON.stringify({ translations: [{ id: 0, text: 'buenos días' }] })
          : JSON.stringify({ translations: { '1': 'hasta mañana' } }),
    }));
    const result = await new LlmTranslationEngine({ client }).translate(input(small), 'es');
    expect(result.segments.map((x) => x.text)).toEqual(['buenos días', 'hasta mañana']);
    expect(s.requests).toHaveLength(2);
    expect(s.prompt(1)).toContain('"id":1');
    expect(s.prompt(1)).not.toContain('"id":0');
  });

  it('fails clearly when lines stay missing, and on a refused key', async () => {
    const small = meetingDocument('tr2', 'en', [{ text: 'good morning' }, { text: 'see you tomorrow' }]);
    const { client } = await clientFor(() => ({
      content: JSON.stringify({ translations: [{ id: 0, text: 'buenos días' }] }),
    }));
    await expect(new LlmTranslationEngine({ client }).translate(input(small), 'es')).rejects.toMatchObject({
      detail:
        'The LLM (model "meeting-model") returned JSON of the wrong shape for the translation of segment 1: no translation names an id that was asked for.',
    });
    await server!.close();
    const { client: refused } = await clientFor(() => ({ status: 401, raw: 'Unauthorized' }));
    await expect(new LlmTranslationEngine({ client: refused }).translate(input(small), 'ja')).rejects.toMatchObject({
      kind: 'unavailable',
      detail: expect.stringMatching(/refused the credentials/),
    });
  });
});
