// bench:asr part "confidence" (decision 0086): does an underlined word (confidence below UNCERTAIN_BELOW,
// src-shared/word-confidence.ts) turn out wrong at least half of the time, and how many of the wrong
// words does the underline catch? Each recognized word is aligned with the reference transcript
// (Levenshtein): a word matched to the same reference word is right; substituted or inserted, wrong.
//
// Speech, all English with a reference: pocketsphinx-testdata's real recordings (LibriVox, goforward,
// cards) and festival's HTS voice reading the benches' everyday sentences and Harvard lists 1-6: speech the
// recognizer gets mostly right (~10 % of words wrong), as in the recordings users bring. Tuning:
// even-numbered sentences and recordings; held out: the odd ones. espeak-ng's six accents reading the
// first 22 sentences are reported apart, for information only: pocketsphinx gets three words in four wrong
// there, and a calibration fitted on that would call most words of ordinary speech wrong (decision 0086).
//
// `npm run fit:confidence` fits the calibration (a logistic model over word-confidence.ts's features,
// not class-weighted: its output is a probability) on the tuning part and writes it, with the figures
// and the corpus it came from, to src-server/engines/speech/pocketsphinx-confidence-model.ts.
// The bench reports the shipped model on the held-out part, next to the raw posterior with the old
// underline (below 0.85). Decoded words are cached, so refitting is cheap.
//
// whisper: measured when BENCH_WHISPER_MODEL names a model file (its confidence as the engine gives it,
// the mean token probability, uncalibrated); there are no whisper weights in this environment.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PocketsphinxEngine } from '../src-server/engines/speech/pocketsphinx-engine.js';
import { WhisperEngine } from '../src-server/engines/speech/whisper-engine.js';
import type { RecognizeResult } from '../src-server/engines/speech/speech-engine.js';
import {
  CONFIDENCE_FEATURES,
  confidenceFeatures,
  logisticConfidence,
  type LogisticConfidenceModel,
  type PosteriorEvidence,
} from '../src-server/engines/speech/word-confidence.js';
import { POCKETSPHINX_CONFIDENCE_MODEL } from '../src-server/engines/speech/pocketsphinx-confidence-model.js';
import { UNCERTAIN_BELOW } from '../src-shared/word-confidence.js';
import { ENGLISH_VOICES, ESPEAK_VARIANTS, espeakVoiceWav, SENTENCES } from './language-corpus.js';
import { fitLogistic } from './language-mismatch.js';
import { CACHE_DIR, FESTIVAL_SENTENCES, festivalWav, pcmOf, testdataUtterances } from './speech-corpus.js';
import { alignedCorrect, normalizeWords } from './stats.js';

/** The underline before calibration: raw posterior below this (transcript-pane.tsx until decision 0086). */
const OLD_UNDERLINE_BELOW = 0.85;
const SPEED = 165;
const signal = new AbortController().signal;

type Source = 'real' | 'festival' | 'espeak';

interface Clip {
  id: string;
  source: Source;
  heldOut: boolean;
  text: string;
  wav: () => Promise<string>;
}

/** One recognized word, with what the decoder said about it and whether it was right. */
export interface LabelledWord {
  clip: string;
  source: Source;
  heldOut: boolean;
  evidence: PosteriorEvidence;
  right: boolean;
}

/** Harvard sentences (IEEE 1969), lists 2-6: more ordinary read speech than the benches' twenty. */
const MORE_HARVARD = [
  'A rod is used to catch pink salmon.',
  'The source of the huge river is the clear spring.',
  'Kick the ball straight and follow through.',
  'Help the woman get back to her feet.',
  'A pot of tea helps to pass the evening.',
  'Smoky fires lack flame and heat.',
  "The soft cushion broke the man's fall.",
  'The salt breeze came across from the sea.',
  'The girl at the booth sold fifty bonds.',
  'The small pup gnawed a hole in the sock.',
  'The fish twisted and turned on the bent hook.',
  'Press the pants and sew a button on the vest.',
  'The swan dive was far short of perfect.',
  'The beauty of the view stunned the young boy.',
  'Two blue fish swam in the tank.',
  'Her purse was full of useless trash.',
  'The colt reared and threw the tall rider.',
  'It snowed, rained, and hailed the same morning.',
  'Read verse out loud for pleasure.',
  'Hoist the load to your left shoulder.',
  'Take the winding path to reach the lake.',
  'Note closely the size of the gas tank.',
  'Wipe the grease off his dirty face.',
  'Mend the coat before you go out.',
  'The wrist was badly strained and hung limp.',
  'The stray cat gave birth to kittens.',
  'The young girl gave no clear response.',
  'The meal was cooked before the bell rang.',
  'What joy there is in living.',
  'A king ruled the state in the early days.',
  'The ship was torn apart on the sharp reef.',
  'Sickness kept him home the third week.',
  'The wide road shimmered in the hot sun.',
  'The lazy cow lay in the cool grass.',
  'Lift the square stone over the fence.',
  'The rope will bind the seven books at once.',
  'Hop over the fence and plunge in.',
  'The friendly gang left the drug store.',
  'Mesh wire keeps chicks inside.',
  'The frosty air passed through the coat.',
  'The crooked maze failed to fool the mouse.',
  'Adding fast leads to wrong sums.',
  'The show was a flop from the very start.',
  'A saw is a tool used for making boards.',
  'The wagon moved on well oiled wheels.',
  'March the soldiers past the next hill.',
  'A cup of sugar makes sweet fudge.',
  'Place a rosebush near the porch steps.',
  'Both lost their lives in the raging storm.',
];

/** The benches' sentences (festival's twenty and the language set's two more), then MORE_HARVARD. */
function sentences(): string[] {
  return [...new Set([...FESTIVAL_SENTENCES, ...SENTENCES.en!, ...MORE_HARVARD])];
}
/** Sentences espeak-ng reads (the benches' 22: its clips are information, not calibration). */
const ESPEAK_SENTENCES = 22;

async function clips(): Promise<Clip[]> {
  const out: Clip[] = [];
  const { librivox, goforward, cards } = await testdataUtterances();
  for (const [i, u] of [...librivox, goforward, ...cards].entries())
    out.push({ id: `real ${u.id}`, source: 'real', heldOut: i % 2 === 1, text: u.text, wav: async () => u.source });
  for (const [i, text] of sentences().entries()) {
    const heldOut = i % 2 === 1;
    out.push({ id: `festival #${i}`, source: 'festival', heldOut, text, wav: () => festivalWav(text) });
    if (i >= ESPEAK_SENTENCES) continue;
    for (const [v, accent] of ENGLISH_VOICES.entries()) {
      const voice = accent + ESPEAK_VARIANTS[(i + v) % 3];
      out.push({
        id: `espeak ${voice} #${i}`,
        source: 'espeak',
        heldOut,
        text,
        wav: () => espeakVoiceWav(voice, SPEED, text),
      });
    }
  }
  return out;
}

/** The words pocketsphinx recognizes in `clip`, with the evidence behind each confidence (cached). */
async function decode(engine: PocketsphinxEngine, evidence: PosteriorEvidence[], clip: Clip) {
  const pcm = await pcmOf(await clip.wav());
  const cacheFile = path.join(CACHE_DIR, `confidence-v1-${path.basename(pcm)}.json`);
  if (fs.existsSync(cacheFile)) return JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as PosteriorEvidence[];
  evidence.length = 0;
  const result = await engine.recognize({ pcmPath: pcm, language: 'en', vocabulary: [], signal });
  const words = result.segments.flatMap((s) => s.words);
  // The engine asks for one confidence per word, in order (no vocabulary: no words respelled or merged).
  if (words.length !== evidence.length) throw new Error(`${clip.id}: ${words.length} words, ${evidence.length} asked`);
  const decoded = evidence.map((e, i) => ({ ...e, word: words[i]!.word }));
  await fsp.writeFile(cacheFile, JSON.stringify(decoded));
  return decoded;
}

/** Every recognized word of every clip, labelled right or wrong against its reference. */
export async function labelledWords(): Promise<LabelledWord[]> {
  const asked: PosteriorEvidence[] = [];
  const engine = new PocketsphinxEngine({
    vadLog: () => {},
    confidence: (e) => {
      asked.push(e);
      return e.posterior;
    },
  });
  const out: LabelledWord[] = [];
  try {
    for (const clip of await clips()) {
      const words = await decode(engine, asked, clip);
      const right = alignedCorrect(
        normalizeWords(clip.text),
        words.map((w) => normalizeWords(w.word).join(' ')),
      );
      words.forEach((evidence, i) =>
        out.push({ clip: clip.id, source: clip.source, heldOut: clip.heldOut, evidence, right: right[i]! }),
      );
    }
  } finally {
    engine.close();
  }
  return out;
}

/** The speech the calibration is fitted on and judged by (espeak-ng's is information only). */
export const calibrationDomain = (w: LabelledWord) => w.source !== 'espeak';

/** The calibration fitted on the tuning words. */
export function fitConfidence(words: LabelledWord[]): LogisticConfidenceModel {
  const tuning = words.filter((w) => !w.heldOut && calibrationDomain(w));
  const fitted = fitLogistic(
    tuning.map((w) => confidenceFeatures(w.evidence)),
    tuning.map((w) => (w.right ? 1 : 0)),
    0.01,
    6000,
    false,
  );
  return { features: [...CONFIDENCE_FEATURES], ...fitted };
}

export interface UnderlineFigures {
  words: number;
  wrong: number;
  underlined: number;
  /** Underlined words that are wrong. */
  caught: number;
  /** caught / underlined: how often an underlined word is wrong. */
  precision: number;
  /** caught / wrong: how many wrong words are underlined. */
  recall: number;
  /** Mean |confidence - share right| over ten confidence bins, weighted by words. */
  calibrationError: number;
}

export function underlineFigures(
  words: Array<{ right: boolean; confidence: number }>,
  below: number,
): UnderlineFigures {
  const wrong = words.filter((w) => !w.right).length;
  const underlined = words.filter((w) => w.confidence < below);
  const caught = underlined.filter((w) => !w.right).length;
  let calibrationError = 0;
  for (let bin = 0; bin < 10; bin++) {
    const inBin = words.filter((w) => Math.min(9, Math.floor(w.confidence * 10)) === bin);
    if (inBin.length === 0) continue;
    const mean = inBin.reduce((s, w) => s + w.confidence, 0) / inBin.length;
    const share = inBin.filter((w) => w.right).length / inBin.length;
    calibrationError += (inBin.length / words.length) * Math.abs(mean - share);
  }
  return {
    words: words.length,
    wrong,
    underlined: underlined.length,
    caught,
    precision: underlined.length === 0 ? 0 : caught / underlined.length,
    recall: wrong === 0 ? 0 : caught / wrong,
    calibrationError,
  };
}

interface Row {
  measure: string;
  result: string;
  target: string;
  ok: boolean | null;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function describe(f: UnderlineFigures): string {
  return `${pct(f.precision)} wrong of ${f.underlined} underlined; catches ${f.caught}/${f.wrong} wrong (${pct(f.recall)}); ECE ${f.calibrationError.toFixed(3)}`;
}

export async function confidenceBench(rows: Row[]): Promise<void> {
  const words = await labelledWords();
  const calibrated = logisticConfidence(POCKETSPHINX_CONFIDENCE_MODEL);
  const fitted = fitConfidence(words);
  if (JSON.stringify(fitted.weights) !== JSON.stringify(POCKETSPHINX_CONFIDENCE_MODEL.weights))
    console.log(
      `\nconfidence: a fit on today's tuning words gives ${JSON.stringify(fitted)}, not the shipped model; ` +
        '`npm run fit:confidence` writes it. The figures below are the shipped model.',
    );
  for (const heldOut of [false, true]) {
    const part = words.filter((w) => w.heldOut === heldOut && calibrationDomain(w));
    const name = heldOut ? 'held out' : 'tuning';
    const wrong = part.filter((w) => !w.right).length;
    rows.push({
      measure: `Confidence, pocketsphinx, ${name}: ${part.length} words, ${wrong} wrong (${pct(wrong / part.length)}); clips: ${new Set(part.map((w) => w.clip)).size}`,
      result: '-',
      target: '-',
      ok: null,
    });
    const raw = underlineFigures(
      part.map((w) => ({ right: w.right, confidence: w.evidence.posterior })),
      OLD_UNDERLINE_BELOW,
    );
    rows.push({
      measure: `  before: raw posterior < ${OLD_UNDERLINE_BELOW} underlined (${pct(raw.underlined / raw.words)} of words)`,
      result: describe(raw),
      target: 'info',
      ok: null,
    });
    const bySource = (source: Source | null) => {
      const list = words.filter(
        (w) => w.heldOut === heldOut && (source === null ? calibrationDomain(w) : w.source === source),
      );
      return underlineFigures(
        list.map((w) => ({ right: w.right, confidence: calibrated(w.evidence) })),
        UNCERTAIN_BELOW,
      );
    };
    const all = bySource(null);
    rows.push({
      measure: `  calibrated < ${UNCERTAIN_BELOW} underlined (${pct(all.underlined / all.words)} of words): share wrong`,
      result: describe(all),
      target: '>= 50% wrong',
      ok: all.precision >= 0.5,
    });
    for (const source of ['real', 'festival', 'espeak'] as const) {
      const f = bySource(source);
      rows.push({
        measure: `    ${source === 'espeak' ? 'not calibrated on: espeak-ng' : source} speech: ${f.words} words, ${f.wrong} wrong (${pct(f.wrong / f.words)}), ${f.underlined} underlined`,
        result: describe(f),
        target: 'info',
        ok: null,
      });
    }
  }
  await whisperConfidence(rows);
}

/** whisper's own word confidence on the held-out clips, when a model file is given. */
async function whisperConfidence(rows: Row[]): Promise<void> {
  const model = process.env.BENCH_WHISPER_MODEL;
  if (!model || !fs.existsSync(model)) {
    rows.push({
      measure: 'Confidence, whisper: no model file (set BENCH_WHISPER_MODEL; none in this environment)',
      result: 'not measured',
      target: '>= 50% wrong',
      ok: null,
    });
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-bench-confidence-'));
  const engine = new WhisperEngine({ model, dataDir, vadLog: () => {} });
  const words: Array<{ right: boolean; confidence: number }> = [];
  try {
    for (const clip of (await clips()).filter((c) => c.heldOut)) {
      const result: RecognizeResult = await engine.recognize({
        pcmPath: await pcmOf(await clip.wav()),
        language: 'en',
        vocabulary: [],
        signal,
      });
      const recognized = result.segments.flatMap((s) => s.words);
      const right = alignedCorrect(
        normalizeWords(clip.text),
        recognized.map((w) => normalizeWords(w.word).join(' ')),
      );
      recognized.forEach((w, i) => w.confidence !== null && words.push({ right: right[i]!, confidence: w.confidence }));
    }
  } finally {
    await engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const f = underlineFigures(words, UNCERTAIN_BELOW);
  rows.push({
    measure: `Confidence, whisper ${path.basename(model)}, held out (uncalibrated): ${f.words} words, ${f.wrong} wrong`,
    result: describe(f),
    target: '>= 50% wrong',
    ok: f.precision >= 0.5,
  });
}
