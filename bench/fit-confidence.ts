// npm run fit:confidence — fits pocketsphinx's word-confidence calibration on the tuning half of
// bench/confidence.ts's speech and writes src-server/engines/speech/pocketsphinx-confidence-model.ts,
// with the figures it reached on both halves (decision 0086). Deterministic: the same decoded words
// give the same file.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { logisticConfidence } from '../src-server/engines/speech/word-confidence.js';
import { UNCERTAIN_BELOW } from '../src-shared/word-confidence.js';
import { calibrationDomain, fitConfidence, labelledWords, underlineFigures } from './confidence.js';

const ROOT = path.resolve(fileURLToPath(import.meta.url), '../../..');
const OUT = path.join(ROOT, 'src-server/engines/speech/pocketsphinx-confidence-model.ts');

const words = await labelledWords();
const model = fitConfidence(words);
const calibrated = logisticConfidence(model);
const figures = (heldOut: boolean) => {
  const f = underlineFigures(
    words
      .filter((w) => w.heldOut === heldOut && calibrationDomain(w))
      .map((w) => ({ right: w.right, confidence: calibrated(w.evidence) })),
    UNCERTAIN_BELOW,
  );
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { ...f, precision: round(f.precision), recall: round(f.recall), calibrationError: round(f.calibrationError) };
};
const provenance = {
  fittedBy: 'npm run fit:confidence (bench/fit-confidence.ts, bench/confidence.ts)',
  corpus:
    'English with reference transcripts: pocketsphinx-testdata (LibriVox x5, goforward, cards x5) and festival ' +
    'cmu_us_slt_arctic_hts reading 71 everyday and Harvard sentences; tuning = even-numbered sentences and ' +
    'recordings, held out = odd ones',
  underlineBelow: UNCERTAIN_BELOW,
  tuning: figures(false),
  heldOut: figures(true),
};
const source = `// Written by \`npm run fit:confidence\`: do not edit by hand (decision 0086). The logistic model that turns
// pocketsphinx's evidence about a word (word-confidence.ts's features) into the probability that it is right.
export const POCKETSPHINX_CONFIDENCE_MODEL = ${JSON.stringify({ ...model, provenance })};
`;
const options = await prettier.resolveConfig(OUT);
await fsp.writeFile(OUT, await prettier.format(source, { ...options, parser: 'typescript' }));
console.log(`wrote ${path.relative(ROOT, OUT)}`);
console.log(JSON.stringify(provenance, null, 2));
