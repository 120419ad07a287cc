// npm run bench:analysis — prints, from one run:
//  - emotion macro-F1 and accuracy on the GoEmotions (Ekman) test split (needs ../shared/data);
//  - the summary's recall and precision of planted action items and decisions, and how often the owner is
//    right, on the meetings the rules were tuned on and, apart, on held-out meetings (the first held-out set
//    showed the misses issue 27 item 10 fixed; the untuned set was written after and no rule has seen it);
//  - time per 1,000 words of each embedded analysis (summary, emotion, translation en→es).
// BENCH_ONLY=summary,speed,emotion (comma-separated parts); default all. The emotion part takes minutes.
import fs from 'node:fs';
import path from 'node:path';
import type { TranscriptDocument } from '../src-shared/transcript-document.js';
import type { AnalysisInput } from '../src-server/domain/analysis-engines.js';
import { LocalEmotionEngine } from '../src-server/engines/emotion/local-emotion-engine.js';
import { ExtractiveSummaryEngine } from '../src-server/engines/summary/extractive-summary.js';
import { ApertiumTranslationEngine } from '../src-server/engines/translation/apertium-engine.js';
import {
  meetingFixtures,
  scoreSummary,
  standupUnpunctuated,
  planningPunctuated,
  type MeetingFixture,
} from '../test/fixtures/meetings/meetings.js';
import { heldOutMeetings } from '../test/fixtures/meetings/held-out.js';
import { untunedMeetings } from '../test/fixtures/meetings/untuned.js';
import { evaluateEmotionModel } from './emotion-eval.js';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = path.resolve(root, '../shared/data/goemotions-ekman');
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((part) => part.trim())
  .filter(Boolean);
const runs = (part: 'emotion' | 'summary' | 'speed') => ONLY.length === 0 || ONLY.includes(part);
const rows: Array<[string, string, string]> = [];
const row = (measure: string, value: string, target = '') => rows.push([measure, value, target]);

// Emotion quality.
if (!runs('emotion')) {
  // left out by BENCH_ONLY
} else if (fs.existsSync(dataDir)) {
  const test = evaluateEmotionModel(dataDir, { split: 'test' });
  row('emotion macro-F1, GoEmotions Ekman test split', test.macroF1.toFixed(3));
  row('emotion accuracy, GoEmotions Ekman test split', test.accuracy.toFixed(3));
} else {
  row('emotion macro-F1 / accuracy', 'skipped', `${dataDir} not found`);
}

// Summary recall of planted items.
const summary = new ExtractiveSummaryEngine();
const input = (document: TranscriptDocument): AnalysisInput => ({
  document,
  language: document.language,
  signal: new AbortController().signal,
});
async function recall(label: string, fixtures: readonly MeetingFixture[]) {
  const total = {
    expected: 0,
    found: 0,
    matched: 0,
    owners: 0,
    dues: 0,
    decisionsExpected: 0,
    decisionsFound: 0,
    decisionsMatched: 0,
    falsePositives: 0,
  };
  for (const fixture of fixtures) {
    const score = scoreSummary(fixture, (await summary.summarize(input(fixture.document))).details);
    total.expected += score.actionItems.expected;
    total.found += score.actionItems.found;
    total.matched += score.actionItems.matched;
    total.owners += score.actionItems.ownersRight;
    total.dues += score.actionItems.duesRight;
    total.decisionsExpected += score.decisions.expected;
    total.decisionsFound += score.decisions.found;
    total.decisionsMatched += score.decisions.matched;
    total.falsePositives += score.falsePositives;
  }
  const pct = (a: number, b: number) => (b === 0 ? `${a}/0` : `${a}/${b} = ${((100 * a) / b).toFixed(0)} %`);
  row(`summary, ${label}`, '');
  row('  action items: recall of planted', pct(total.matched, total.expected));
  row('  action items: precision (planted / reported)', pct(total.matched, total.found));
  row('  action items found: owner right', pct(total.owners, total.matched));
  row('  action items found: due right', pct(total.dues, total.matched));
  row('  decisions: recall of planted', pct(total.decisionsMatched, total.decisionsExpected));
  row('  decisions: precision (planted / reported)', pct(total.decisionsMatched, total.decisionsFound));
  row('  look-alikes wrongly reported', String(total.falsePositives));
}
if (runs('summary')) {
  await recall(`tuning set (${meetingFixtures.length} meetings)`, meetingFixtures);
  await recall(`held-out set (${heldOutMeetings.length} meetings)`, heldOutMeetings);
  await recall(`untuned set (${untunedMeetings.length} meetings, written after the last rule change)`, untunedMeetings);
}

// Speed per 1,000 words on a long English transcript made of the meeting fixtures.
function longTranscript(targetWords: number): TranscriptDocument {
  const base = [standupUnpunctuated.document, planningPunctuated.document];
  const segments: TranscriptDocument['segments'] = [];
  let words = 0;
  let offset = 0;
  while (words < targetWords) {
    for (const document of base) {
      for (const s of document.segments) {
        segments.push({
          ...s,
          id: segments.length,
          start: s.start + offset,
          end: s.end + offset,
          words: s.words.map((w) => ({ ...w, start: w.start + offset, end: w.end + offset })),
        });
        words += s.text.split(/\s+/).length;
      }
      offset += document.duration;
    }
  }
  return { ...base[0]!, segments, text: segments.map((s) => s.text).join(' '), duration: offset };
}
async function speed() {
  const long = longTranscript(10_000);
  const wordCount = long.text.split(/\s+/).length;
  const perThousand = async (run: () => Promise<unknown>) => {
    await run(); // warm-up: loading models is a one-off cost, reported apart
    const t0 = performance.now();
    await run();
    return ((performance.now() - t0) / wordCount) * 1000;
  };
  const emotion = new LocalEmotionEngine();
  const apertium = new ApertiumTranslationEngine();
  row(
    `summary (textrank), ms per 1,000 words (${wordCount} words)`,
    (await perThousand(() => summary.summarize(input(long)))).toFixed(0),
  );
  row(
    'emotion (goemotions-linear), ms per 1,000 words',
    (await perThousand(() => emotion.analyze(input(long)))).toFixed(0),
  );
  const englishTargets = apertium.targets('en');
  if (englishTargets.includes('es')) {
    row(
      'translation en→es (apertium), ms per 1,000 words',
      (await perThousand(() => apertium.translate(input(long), 'es'))).toFixed(0),
    );
  } else {
    row('translation en→es (apertium)', 'skipped', 'apertium-eng-spa not installed');
  }
}
if (runs('speed')) await speed();

const width = Math.max(...rows.map((r) => r[0].length)) + 2;
console.log('\nkikitori-server analysis benchmark\n');
for (const [measure, value, note] of rows) console.log(`${measure.padEnd(width)}${value}${note ? `   (${note})` : ''}`);
