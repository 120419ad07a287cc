import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApertiumTranslationEngine,
  parseApertiumModes,
  stripApertiumMarks,
} from '../../../../../src-server/engines/translation/apertium-engine.js';
import { meetingDocument, standupUnpunctuated } from '../../../../fixtures/meetings/meetings.js';

const input = (
  document: ReturnType<typeof meetingDocument>,
  language = 'en',
  signal = new AbortController().signal,
) => ({ document, language, signal });

describe('parseApertiumModes', () => {
  it('keeps plain pairs with ISO 639-1 codes and drops variants', () => {
    const pairs = parseApertiumModes([
      'cat-eng',
      'cat-eng_US',
      'en-eo-bytecode',
      'en-eo',
      'en-gl',
      'eng-cat',
      'eng-cat_valencia',
      'eng-spa',
      'eo-en',
      'eu-en',
      'gl-en',
      'isl-eng',
      'mkd-eng',
      'spa-eng',
      'spa-eng_US',
      'hbs-eng',
      'spa-ast',
    ]);
    const key = (p: { source: string; target: string }) => `${p.source}>${p.target}`;
    expect(pairs.map(key).sort()).toEqual(
      ['ca>en', 'en>ca', 'en>eo', 'en>es', 'en>gl', 'eo>en', 'es>en', 'eu>en', 'gl>en', 'is>en', 'mk>en'].sort(),
    );
    expect(pairs.find((p) => key(p) === 'en>es')?.mode).toBe('eng-spa');
  });
});

describe('stripApertiumMarks', () => {
  it('removes unknown, untranslated and ungenerated word marks but keeps the words', () => {
    expect(stripApertiumMarks('*alice enviará el informe por *friday')).toBe('alice enviará el informe por friday');
    expect(stripApertiumMarks('el #perro y @gato, (*Zork)')).toBe('el perro y gato, (Zork)');
  });
  it('keeps marks that were in the source text', () => {
    expect(stripApertiumMarks('ver #kikitori y @dana', 'see #kikitori and @dana')).toBe('ver #kikitori y @dana');
    expect(stripApertiumMarks('3 * 4 = 12')).toBe('3 * 4 = 12');
  });
});

describe('ApertiumTranslationEngine targets', () => {
  it('reports only the pairs it was given', () => {
    const engine = new ApertiumTranslationEngine({ modes: ['eng-spa', 'spa-eng'] });
    expect(engine.targets('en')).toEqual(['es']);
    expect(engine.targets('es')).toEqual(['en']);
    expect(engine.targets('ja')).toEqual([]);
  });

  it('reports nothing when apertium is not installed', () => {
    const engine = new ApertiumTranslationEngine({ command: '/nonexistent/apertium' });
    expect(engine.targets('en')).toEqual([]);
  });

  it('discovers the installed pairs', () => {
    const engine = new ApertiumTranslationEngine();
    const fromEnglish = engine.targets('en');
    expect(fromEnglish).toEqual(expect.arrayContaining(['es', 'ca', 'gl', 'eo']));
    expect(fromEnglish).not.toContain('ja');
    for (const source of ['es', 'ca', 'gl', 'eo', 'eu', 'is', 'mk']) expect(engine.targets(source)).toContain('en');
    expect(engine.targets('ja')).toEqual([]);
    expect(engine.targets('eu')).not.toContain('es'); // not installed
  });
});

describe('ApertiumTranslationEngine translate', () => {
  const engine = new ApertiumTranslationEngine();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kikitori-apertium-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('translates English to Spanish segment by segment, keeping ids and times', async () => {
    const document = meetingDocument('t1', 'en', [
      { text: 'the meeting is tomorrow' },
      { text: '' },
      { text: 'i will send the report by friday' },
      { text: 'Profit & loss <draft> is ready.' },
      { text: 'the blue' },
      { text: 'car is red' },
    ]);
    const result = await engine.translate(input(document), 'es');
    expect(result.segments.map((s) => [s.segment_id, s.start, s.end])).toEqual(
      document.segments.map((s) => [s.id, s.start, s.end]),
    );
    const [meeting, empty, report, amp, blue, car] = result.segments.map((s) => s.text.toLowerCase());
    expect(meeting).toContain('reunión');
    expect(meeting).toContain('mañana');
    expect(empty).toBe('');
    expect(report).toContain('enviaré'); // the lowercase "i" of ASR text is understood
    expect(report).toContain('informe');
    expect(amp).toContain('&');
    expect(amp).toContain('<');
    // Words do not move across segments ("the blue | car" is not "el coche azul").
    expect(blue).not.toContain('coche');
    expect(car).toContain('rojo');
    expect(result.translatedText).toBe(
      result.segments
        .map((s) => s.text)
        .filter(Boolean)
        .join(' '),
    );
    expect(result.translatedText).not.toMatch(/(^|\s)[*#@]\p{L}/u);
  });

  it('translates into English from Spanish and Catalan', async () => {
    const es = await engine.translate(
      input(meetingDocument('t2', 'es', [{ text: 'La reunión es importante.' }]), 'es'),
      'en',
    );
    expect(es.segments[0]!.text.toLowerCase()).toContain('meeting');
    const ca = await engine.translate(input(meetingDocument('t3', 'ca', [{ text: 'La reunió és demà.' }]), 'ca'), 'en');
    expect(ca.segments[0]!.text.toLowerCase()).toContain('tomorrow');
  });

  it('runs one apertium process for a whole transcript', async () => {
    const log = path.join(dir, 'calls.log');
    const wrapper = path.join(dir, 'apertium-counting');
    await writeFile(wrapper, `#!/bin/sh\necho call >> '${log}'\nexec apertium "$@"\n`);
    await chmod(wrapper, 0o755);
    const counting = new ApertiumTranslationEngine({ command: wrapper });
    const result = await counting.translate(input(standupUnpunctuated.document), 'es');
    expect(result.segments).toHaveLength(standupUnpunctuated.document.segments.length);
    expect(result.segments.every((s) => s.text.length > 0)).toBe(true);
    const calls = (await readFile(log, 'utf8')).trim().split('\n');
    expect(calls).toHaveLength(2); // one listing the modes, one translating
  });

  it('translates a paragraph apertium lost on its own', async () => {
    const lossy = path.join(dir, 'apertium-lossy');
    // Drops the paragraph of segment 1 from HTML runs; plain-text runs pass through.
    await writeFile(
      lossy,
      `#!/bin/sh\nfor a; do f=$a; done\nif [ "$1" = "-l" ] || [ "$3" != "html" ]; then exec apertium "$@"; fi\napertium "$@" | grep -v 'id="s1"'\n`,
    );
    await chmod(lossy, 0o755);
    const document = meetingDocument('t6', 'en', [
      { text: 'the meeting is tomorrow' },
      { text: 'the report is ready & late' },
      { text: 'thank you' },
    ]);
    const result = await new ApertiumTranslationEngine({ command: lossy }).translate(input(document), 'es');
    expect(result.segments.map((s) => s.segment_id)).toEqual([0, 1, 2]);
    expect(result.segments[1]!.text.toLowerCase()).toContain('informe');
    expect(result.segments[1]!.text).toContain('&');
    expect(result.segments[2]!.text.toLowerCase()).toContain('gracias');
  });

  it('rejects a pair that is not installed, naming what is', async () => {
    await expect(engine.translate(input(meetingDocument('t4', 'en', [{ text: 'hello' }])), 'ja')).rejects.toThrow(
      /no installed pair from "en" to "ja".*Targets from "en": .*es/,
    );
    await expect(engine.translate(input(meetingDocument('t4', 'en', [{ text: 'hello' }])), 'ja')).rejects.toMatchObject(
      {
        kind: 'unsupported',
        field: 'language',
      },
    );
  });

  it('fails with a closed kind and a message for the user, keeping what apertium said for the log', async () => {
    const document = meetingDocument('t7', 'en', [{ text: 'hello there' }]);
    // Not installed: the operator must act.
    const missing = new ApertiumTranslationEngine({ command: path.join(dir, 'no-such-apertium'), modes: ['eng-spa'] });
    const notInstalled = await missing.translate(input(document), 'es').catch((error: unknown) => error);
    expect(notInstalled).toMatchObject({
      name: 'EngineError',
      kind: 'unavailable',
      detail: expect.stringContaining('apertium is not installed'),
    });
    expect((notInstalled as Error).message).not.toMatch(/apertium/i);
    // A failed run: passing, try again.
    const failing = path.join(dir, 'apertium-failing');
    await writeFile(
      failing,
      `#!/bin/sh\nif [ "$1" = "-l" ]; then echo eng-spa; exit 0; fi\necho 'Error: transfer file corrupt' >&2\nexit 3\n`,
    );
    await chmod(failing, 0o755);
    const failed = await new ApertiumTranslationEngine({ command: failing })
      .translate(input(document), 'es')
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({
      name: 'EngineError',
      kind: 'transient',
      detail: expect.stringContaining('exit 3): Error: transfer file corrupt'),
    });
    expect((failed as Error).message).toBe(
      'The translation failed because of a problem on the server. Try again later.',
    );
    // Past its time limit: stopped, passing.
    const stuck = path.join(dir, 'apertium-stuck');
    await writeFile(stuck, `#!/bin/sh\nif [ "$1" = "-l" ]; then echo eng-spa; exit 0; fi\nsleep 30\n`);
    await chmod(stuck, 0o755);
    const timedOut = await new ApertiumTranslationEngine({ command: stuck, timeoutMs: 200 })
      .translate(input(document), 'es')
      .catch((error: unknown) => error);
    expect(timedOut).toMatchObject({
      name: 'EngineError',
      kind: 'transient',
      detail: expect.stringContaining('apertium (eng-spa) took longer than'),
    });
  });

  it('stops apertium when the analysis is cancelled', async () => {
    const pidFile = path.join(dir, 'slow.pid');
    const slow = path.join(dir, 'apertium-slow');
    await writeFile(
      slow,
      `#!/bin/sh\nif [ "$1" = "-l" ]; then echo eng-spa; exit 0; fi\necho $$ > '${pidFile}'\nsleep 30\n`,
    );
    await chmod(slow, 0o755);
    const slowEngine = new ApertiumTranslationEngine({ command: slow });
    const controller = new AbortController();
    const started = Date.now();
    const running = slowEngine.translate(
      input(meetingDocument('t5', 'en', [{ text: 'hello there' }]), 'en', controller.signal),
      'es',
    );
    setTimeout(() => controller.abort(new Error('cancelled by test')), 300);
    await expect(running).rejects.toThrow('cancelled by test');
    expect(Date.now() - started).toBeLessThan(5000);
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    await new Promise((r) => setTimeout(r, 100));
    expect(spawnSync('kill', ['-0', String(pid)]).status).not.toBe(0); // gone
  });
});
