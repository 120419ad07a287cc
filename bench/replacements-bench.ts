// npm run bench:replacements — prints the time forced replacements take for 10,000 recognised words
// against a dictionary of 2,000 rules (half one-word, half two-word patterns), the case of issue 11
// that blocked the job's event loop for 57 s when each word was matched against every rule.
import { performance } from 'node:perf_hooks';
import { applyReplacements, type ReplacementRule } from '../src-server/domain/replacements.js';
import type { TranscriptSegment } from '../src-shared/transcript-document.js';

const WORDS = Number(process.env.BENCH_WORDS ?? 10_000);
const RULES = Number(process.env.BENCH_RULES ?? 2_000);
const PER_SEGMENT = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const rules: ReplacementRule[] = Array.from({ length: RULES }, (_, k) =>
  k % 2 === 0 ? { pattern: `Term${k}`, replacement: `T${k}` } : { pattern: `term${k} part${k}`, replacement: `TP${k}` },
);
// A third of the words hit a rule; the rest are plain words.
const word = (i: number): string => {
  const k = (i * 7919) % (RULES * 3);
  return k < RULES ? `term${k}${i % 11 === 0 ? ',' : ''}` : `plain${k}`;
};
const segments: TranscriptSegment[] = [];
for (let start = 0; start < WORDS; start += PER_SEGMENT) {
  const words = Array.from({ length: Math.min(PER_SEGMENT, WORDS - start) }, (_, j) => ({
    word: word(start + j),
    start: start + j,
    end: start + j + 1,
    confidence: 0.9,
  }));
  segments.push({
    id: segments.length,
    start,
    end: start + words.length,
    speaker: null,
    text: words.map((w) => w.word).join(' '),
    words,
  });
}

const times: number[] = [];
let replaced = 0;
for (let run = 0; run < RUNS; run++) {
  const t0 = performance.now();
  const { applied } = applyReplacements(segments, rules, 'en');
  times.push(performance.now() - t0);
  replaced = applied.reduce((n, a) => n + a.count, 0);
}
times.sort((a, b) => a - b);
console.log(`forced replacements: ${WORDS} words x ${RULES} rules, ${replaced} replaced`);
console.log(
  `  median ${times[Math.floor(RUNS / 2)]!.toFixed(1)} ms, best ${times[0]!.toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms (${RUNS} runs)`,
);

// Japanese (issue 10): matched on the text across the engine's tokens. Each rule "語k彙" is split over
// two recognised words ("語k" + "彙"); a third of the words hit a rule.
const jaRules: ReplacementRule[] = Array.from({ length: RULES }, (_, k) => ({
  pattern: `語${k}彙`,
  replacement: `R${k}`,
}));
const jaSegments: TranscriptSegment[] = [];
for (let start = 0; start < WORDS; start += PER_SEGMENT) {
  const words = Array.from({ length: Math.min(PER_SEGMENT, WORDS - start) }, (_, j) => {
    const i = start + j;
    const k = (Math.floor(i / 2) * 7919) % (RULES * 3);
    return { word: i % 2 === 0 ? `語${k}` : k < RULES ? '彙' : 'の', start: i, end: i + 1, confidence: 0.9 };
  });
  jaSegments.push({
    id: jaSegments.length,
    start,
    end: start + words.length,
    speaker: null,
    text: words.map((w) => w.word).join(''),
    words,
  });
}
const jaTimes: number[] = [];
let jaReplaced = 0;
for (let run = 0; run < RUNS; run++) {
  const t0 = performance.now();
  const { applied } = applyReplacements(jaSegments, jaRules, 'ja');
  jaTimes.push(performance.now() - t0);
  jaReplaced = applied.reduce((n, a) => n + a.count, 0);
}
jaTimes.sort((a, b) => a - b);
console.log(
  `forced replacements, Japanese (on the text, across tokens): ${WORDS} words x ${RULES} rules, ${jaReplaced} replaced`,
);
console.log(
  `  median ${jaTimes[Math.floor(RUNS / 2)]!.toFixed(1)} ms, best ${jaTimes[0]!.toFixed(1)} ms, worst ${jaTimes.at(-1)!.toFixed(1)} ms (${RUNS} runs)`,
);
