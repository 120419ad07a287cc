// The server's own SRT, WebVTT and text over real HTTP (issue 27, decision 0067): real speech, pocketsphinx and
// the run's backend. transcription_path renders the current revision (a review's words, a speaker's name) and
// takes the desktop export's options as query parameters; without them a download is what it always was; a bad
// option is the spec's 400 with a closed code and the parameter named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { MIN_CUE_DURATION } from '../../../src-shared/subtitle-cues.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { startTestServer, transcribeFile, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let alice: string;
let id: string;
let path: string;
let otherPath: string;

const base = (transcription: string) => `/api/v1/transcriptions/${transcription}`;

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.key('acme', 'alice');
  const mallory = await server.key('globex', 'mallory');
  const speech = await synthesizeSpeech(
    'the budget meeting moved to next week please send the report by friday and book the large room for the team',
  );
  id = await transcribeFile(server, alice, speech, { language: 'en', num_speakers: 1 });
  const other = await transcribeFile(server, mallory, speech, { language: 'en' });
  otherPath = (await server.api(mallory, 'GET', base(other))).json.transcription_path as string;

  // A review (revision 2) corrects a word; a revision names the speaker (revision 3).
  const document = (await server.api(alice, 'GET', `${base(id)}/revisions/1`)).json.document as TranscriptDocument;
  const lines = document.segments.map((s, k) => (k === 0 ? `Zentrova ${s.text}` : s.text));
  expect((await server.api(alice, 'POST', `${base(id)}/review`, { reviewed_text: lines.join('\n') })).status).toBe(200);
  const label = document.segments.find((s) => s.speaker)?.speaker;
  expect(label).toMatch(/^SPEAKER_/);
  const named = await server.api(alice, 'POST', `${base(id)}/revisions`, {
    base_revision: 2,
    operations: [{ kind: 'speaker-name', speaker: label, name: 'Aiko' }],
  });
  expect(named.status).toBe(200);
  path = (await server.api(alice, 'GET', base(id))).json.transcription_path as string;
}, 240_000);
afterAll(() => server?.close());

const get = (query: string, from = path) => fetch(`${from}&${query}`);
async function text(query: string): Promise<string> {
  const response = await get(query);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.text();
}

/** "00:00:01,500" or "00:00:01.500" -> 1500 */
const ms = (time: string) =>
  time.split(/[:,.]/).reduce((sum, part, k) => sum + Number(part) * [3_600_000, 60_000, 1000, 1][k]!, 0);

function cuesOf(subtitles: string): { start: number; end: number; lines: string[] }[] {
  return subtitles
    .replace(/^WEBVTT\s*/, '')
    .trim()
    .split(/\r?\n\r?\n/)
    .map((block) => {
      const rows = block.split(/\r?\n/).filter((row) => !/^\d+$/.test(row));
      const [from, to] = rows[0]!.split(' --> ');
      return { start: ms(from!), end: ms(to!), lines: rows.slice(1) };
    });
}

describe('transcription_path as subtitles', () => {
  it('renders the current revision: the reviewed words and the speaker by name', async () => {
    for (const format of ['srt', 'vtt', 'txt']) expect(await text(`format=${format}`)).toContain('Zentrova');
    expect(await text('format=srt')).toContain('Aiko: Zentrova');
    expect(await text('format=vtt')).toContain('<v Aiko>Zentrova');
  });

  it("honours the export's options: characters per line, lines, longest subtitle, gap and speakers", async () => {
    const srt = await text(
      'format=srt&max_chars_per_line=24&max_lines_per_cue=1&max_cue_duration=2.5&min_gap=0.2&speakers=none',
    );
    const cues = cuesOf(srt);
    expect(cues.length).toBeGreaterThan(3);
    expect(srt).not.toContain('Aiko');
    for (const cue of cues) {
      expect(cue.lines).toHaveLength(1);
      expect(cue.lines[0]!.length).toBeLessThanOrEqual(24);
      expect(cue.end - cue.start).toBeLessThanOrEqual(2500);
      expect(cue.end - cue.start).toBeGreaterThanOrEqual(Math.floor(MIN_CUE_DURATION * 1000));
    }
    for (let k = 1; k < cues.length; k++) expect(cues[k]!.start - cues[k - 1]!.end).toBeGreaterThanOrEqual(200);

    const vtt = await text('format=vtt&speakers=prefix');
    expect(vtt).toContain('Aiko: Zentrova');
    expect(vtt).not.toContain('<v ');
    const plain = await text('format=txt&speakers=none&timestamps=true');
    expect(plain).toMatch(/^\[00:00:0\d\] Zentrova/);
    expect(plain).not.toContain('Aiko');
  });

  it('is what it always was without options', async () => {
    const defaults = 'max_chars_per_line=42&max_lines_per_cue=2&max_cue_duration=7&min_gap=0.08';
    expect(await text('format=srt')).toBe(await text(`format=srt&${defaults}&speakers=prefix`));
    expect(await text('format=vtt')).toBe(await text(`format=vtt&${defaults}&speakers=voice`));
    expect(await text('format=txt')).toBe(await text('format=txt&speakers=prefix&timestamps=false'));
  });
});

describe('the OpenAPI document', () => {
  it('lists the options as query parameters of the transcript download', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    };
    const names = (doc.paths['/files/transcript/{id}']?.get?.parameters ?? [])
      .filter((p) => p.in === 'query')
      .map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'format',
        'max_chars_per_line',
        'max_lines_per_cue',
        'max_cue_duration',
        'min_gap',
        'speakers',
        'timestamps',
      ]),
    );
  });
});

describe('bad options', () => {
  const refused = async (query: string, field: string) => {
    const response = await get(query);
    expect(response.status, query).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error_code: ErrorCode.VALIDATION_FAILED, field });
    expect(body.error_id).toEqual(expect.any(String));
    expect(body.error_message).toEqual(expect.any(String));
    return body;
  };

  it('are 400 VALIDATION_FAILED naming the parameter: out of range, not numbers, not whole, unknown styles', async () => {
    await refused('format=srt&max_chars_per_line=abc', 'max_chars_per_line');
    await refused('format=srt&max_chars_per_line=7', 'max_chars_per_line');
    await refused('format=srt&max_chars_per_line=1e309', 'max_chars_per_line');
    await refused('format=srt&max_lines_per_cue=2.5', 'max_lines_per_cue');
    await refused('format=srt&max_lines_per_cue=0', 'max_lines_per_cue');
    await refused('format=vtt&max_cue_duration=31', 'max_cue_duration');
    await refused('format=vtt&max_cue_duration=NaN', 'max_cue_duration');
    await refused('format=vtt&min_gap=-0.5', 'min_gap');
    await refused(`format=vtt&speakers=${encodeURIComponent('<script>alert(1)</script>')}`, 'speakers');
    await refused('format=txt&timestamps=sometimes', 'timestamps');
    await refused('format=srt&max_lines_per_cue=1&max_lines_per_cue=2', 'max_lines_per_cue');
  });

  it('are 400 when the format has no use for them, rather than silently dropped', async () => {
    const body = await refused('format=json&max_chars_per_line=20', 'max_chars_per_line');
    expect(body.error_message).toMatch(/srt or vtt/);
    await refused('max_cue_duration=3', 'max_cue_duration');
    await refused('format=txt&min_gap=0.1', 'min_gap');
    await refused('format=srt&timestamps=true', 'timestamps');
    await refused('format=json&speakers=none', 'speakers');
  });

  it("do not get past the signature: another transcription's URL, or a forged one, is still 403", async () => {
    const forged = path.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await get('format=srt&max_chars_per_line=20', forged)).status).toBe(403);
    const otherId = new URL(otherPath).pathname.split('/').pop()!;
    const swapped = path.replace(`/files/transcript/${id}`, `/files/transcript/${otherId}`);
    const response = await get('format=srt&speakers=none', swapped);
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain('budget');
  });
});
