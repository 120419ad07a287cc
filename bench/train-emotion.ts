// Trains the embedded English emotion classifier and writes
// src-server/engines/emotion/goemotions-weights.json.
//
//   npm run train:emotion [-- --data <dir>] [-- --out <file>] [-- --quick]
//
// Data: GoEmotions mapped to Ekman's emotions + neutral ("GoEmotions, Demszky et al. 2020",
// CC BY 4.0), default ../shared/data/goemotions-ekman next to the repository. The data is never
// copied into the repository; only this script and the trained weights are.
//
// Model: multinomial logistic regression (softmax) over unigram + bigram features with negation
// scope marking (src-server/engines/emotion/text-features.ts), sublinear TF, L2-normalised rows;
// vocabulary = features seen in at least `minCount` training rows. Trained with mini-batch Adam +
// L2, deterministic (seeded shuffle, zero init, fixed iteration order). Hyper-parameters (negation
// window, minCount, L2, class weighting, epochs) are chosen by macro-F1 on the dev split; the test
// split is scored once, for the chosen model only.
import fs from 'node:fs';
import path from 'node:path';
import { EMOTION_LABELS } from '../src-shared/analysis.js';
import {
  encodeWeights,
  type EmotionModelFile,
  GOEMOTIONS_ATTRIBUTION,
  GoEmotionsClassifier,
  WEIGHTS_FORMAT,
} from '../src-server/engines/emotion/goemotions-classifier.js';
import { topLabel } from '../src-server/engines/emotion/emotion-scores.js';
import { type FeatureConfig, featureCounts, vectorize } from '../src-server/engines/emotion/text-features.js';
import { seededRandom } from '../src-shared/seeded-random.js';
import { type EkmanExample, evaluateEmotionModel, readEkmanSplit, scorePredictions } from './emotion-eval.js';

const K = EMOTION_LABELS.length;
const ROOT = path.resolve(import.meta.dirname, '../..');

interface Options {
  dataDir: string;
  out: string;
  quick: boolean;
  lr: number;
  epochs: number;
  augment: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    dataDir: path.resolve(ROOT, '../shared/data/goemotions-ekman'),
    out: path.join(ROOT, 'src-server/engines/emotion/goemotions-weights.json'),
    quick: false,
    lr: 0.03,
    epochs: 10,
    augment: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--data') opts.dataDir = path.resolve(argv[++i] ?? '');
    else if (a === '--out') opts.out = path.resolve(argv[++i] ?? '');
    else if (a === '--quick') opts.quick = true;
    else if (a === '--lr') opts.lr = Number(argv[++i]);
    else if (a === '--epochs') opts.epochs = Number(argv[++i]);
    else if (a === '--augment') opts.augment = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

/** Rows of a sparse matrix (CSR) with their soft targets. */
interface Dataset {
  rowStart: Int32Array;
  indices: Int32Array;
  values: Float32Array;
  /** [row][label] target distribution. */
  targets: Float64Array;
  gold: number[][];
  size: number;
}

/** Features in at least `minCount` rows; each row may come in several versions (augmentation). */
function buildVocabulary(rows: string[][], config: FeatureConfig, minCount: number): Map<string, number> {
  const df = new Map<string, number>();
  for (const versions of rows) {
    const seen = new Set<string>();
    for (const text of versions) for (const f of featureCounts(text, config).keys()) seen.add(f);
    for (const f of seen) df.set(f, (df.get(f) ?? 0) + 1);
  }
  const kept = [...df].filter(([, n]) => n >= minCount);
  // Deterministic order: most frequent first, then by code point.
  kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Map(kept.map(([f], i) => [f, i]));
}

function buildDataset(examples: EkmanExample[], vocabulary: Map<string, number>, config: FeatureConfig): Dataset {
  const rows = examples.map((e) => vectorize(e.text, vocabulary, config));
  const nnz = rows.reduce((n, r) => n + r.indices.length, 0);
  const rowStart = new Int32Array(examples.length + 1);
  const indices = new Int32Array(nnz);
  const values = new Float32Array(nnz);
  const targets = new Float64Array(examples.length * K);
  let at = 0;
  rows.forEach((r, i) => {
    rowStart[i] = at;
    indices.set(r.indices, at);
    values.set(r.values, at);
    at += r.indices.length;
    // Multi-label rows (~6%): the target is spread evenly over the gold labels rather than taking
    // the first one. "First label" would silently discard annotations (the file order of ids is
    // not a ranking), and with soft targets the softmax learns that such texts sit between the
    // emotions, which keeps its probabilities honest; single-label rows are unaffected.
    const labels = [...new Set(examples[i]!.labels)];
    for (const l of labels) targets[i * K + l] = 1 / labels.length;
  });
  rowStart[examples.length] = at;
  return { rowStart, indices, values, targets, gold: examples.map((e) => e.labels), size: examples.length };
}

interface Hyper {
  l2: number;
  /** Class weight = (prior share)^-alpha, normalised: 0 = none, 1 = fully balanced. */
  alpha: number;
  lr: number;
  batch: number;
  epochs: number;
  seed: number;
}

interface Model {
  w: Float64Array;
  b: Float64Array;
}

function logitsOf(model: Model, data: Dataset, row: number, out: Float64Array): void {
  for (let c = 0; c < K; c++) out[c] = model.b[c]!;
  for (let j = data.rowStart[row]!; j < data.rowStart[row + 1]!; j++) {
    const base = data.indices[j]! * K;
    const v = data.values[j]!;
    for (let c = 0; c < K; c++) out[c]! += v * model.w[base + c]!;
  }
}

function predict(model: Model, data: Dataset): number[] {
  const z = new Float64Array(K);
  const out: number[] = [];
  for (let r = 0; r < data.size; r++) {
    logitsOf(model, data, r, z);
    let best = 0;
    for (let c = 1; c < K; c++) if (z[c]! > z[best]!) best = c;
    out.push(best);
  }
  return out;
}

/** Trains with mini-batch Adam + L2; returns the epoch with the best dev macro-F1. */
function train(
  trainSet: Dataset,
  devSet: Dataset,
  features: number,
  h: Hyper,
): { model: Model; epoch: number; devMacroF1: number; curve: number[] } {
  // Class weights from the (spread) label mass of the training set.
  const mass = new Float64Array(K);
  for (let i = 0; i < trainSet.targets.length; i++) mass[i % K]! += trainSet.targets[i]!;
  const classWeight = Array.from(mass, (m) => Math.pow(m / trainSet.size, -h.alpha));
  let meanWeight = 0;
  for (let c = 0; c < K; c++) meanWeight += (mass[c]! / trainSet.size) * classWeight[c]!;
  for (let c = 0; c < K; c++) classWeight[c]! /= meanWeight;

  const n = features * K;
  const model: Model = { w: new Float64Array(n), b: new Float64Array(K) };
  const mW = new Float64Array(n);
  const vW = new Float64Array(n);
  const gW = new Float64Array(n);
  const mB = new Float64Array(K);
  const vB = new Float64Array(K);
  const gB = new Float64Array(K);
  const beta1 = 0.9;
  const beta2 = 0.999;
  const eps = 1e-8;
  const random = seededRandom(h.seed);
  const order = Array.from({ length: trainSet.size }, (_, i) => i);
  const z = new Float64Array(K);
  let step = 0;
  let best = { model: { w: model.w.slice(), b: model.b.slice() }, epoch: 0, devMacroF1: -1 };
  const curve: number[] = [];

  for (let epoch = 1; epoch <= h.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (let start = 0; start < order.length; start += h.batch) {
      const end = Math.min(order.length, start + h.batch);
      const size = end - start;
      gW.fill(0);
      gB.fill(0);
      for (let k = start; k < end; k++) {
        const r = order[k]!;
        logitsOf(model, trainSet, r, z);
        let max = -Infinity;
        for (let c = 0; c < K; c++) max = Math.max(max, z[c]!);
        let sum = 0;
        for (let c = 0; c < K; c++) sum += z[c] = Math.exp(z[c]! - max);
        let weight = 0;
        for (let c = 0; c < K; c++) weight += trainSet.targets[r * K + c]! * classWeight[c]!;
        // d(weighted cross-entropy)/d(logit) = weight * (p - target), averaged over the batch.
        for (let c = 0; c < K; c++) z[c] = (weight * (z[c]! / sum - trainSet.targets[r * K + c]!)) / size;
        for (let c = 0; c < K; c++) gB[c]! += z[c]!;
        for (let j = trainSet.rowStart[r]!; j < trainSet.rowStart[r + 1]!; j++) {
          const f = trainSet.indices[j]!;
          const v = trainSet.values[j]!;
          for (let c = 0; c < K; c++) gW[f * K + c]! += v * z[c]!;
        }
      }
      step++;
      const lrT = (h.lr * Math.sqrt(1 - Math.pow(beta2, step))) / (1 - Math.pow(beta1, step));
      // Dense update: L2 acts on every weight each step, so the regularisation is exact.
      for (let i = 0; i < n; i++) {
        const g = gW[i]! + h.l2 * model.w[i]!;
        mW[i] = beta1 * mW[i]! + (1 - beta1) * g;
        vW[i] = beta2 * vW[i]! + (1 - beta2) * g * g;
        model.w[i]! -= (lrT * mW[i]!) / (Math.sqrt(vW[i]!) + eps);
      }
      for (let c = 0; c < K; c++) {
        const g = gB[c]!;
        mB[c] = beta1 * mB[c]! + (1 - beta1) * g;
        vB[c] = beta2 * vB[c]! + (1 - beta2) * g * g;
        model.b[c]! -= (lrT * mB[c]!) / (Math.sqrt(vB[c]!) + eps);
      }
    }
    const dev = scorePredictions(predict(model, devSet), devSet.gold).macroF1;
    curve.push(dev);
    if (dev > best.devMacroF1) best = { model: { w: model.w.slice(), b: model.b.slice() }, epoch, devMacroF1: dev };
  }
  return { ...best, curve };
}

/**
 * What a speech transcript looks like: lowercase, no punctuation, no emoji. Used to measure (and
 * optionally train for) the gap between Reddit comments and recognised speech.
 */
function asrStyle(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\u2019\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function fmt(x: number): string {
  return x.toFixed(4);
}

function main(): void {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(opts.dataDir, 'ekman_train.tsv'))) {
    throw new Error(`GoEmotions Ekman data not found in ${opts.dataDir} (pass --data <dir>)`);
  }
  const t0 = performance.now();
  const originalTrain = readEkmanSplit(opts.dataDir, 'train');
  // --augment: every row also appears in speech-transcript form (see asrStyle).
  const trainEx = opts.augment
    ? [...originalTrain, ...originalTrain.map((e) => ({ ...e, text: asrStyle(e.text) }))]
    : originalTrain;
  const vocabularyRows = originalTrain.map((e) => (opts.augment ? [e.text, asrStyle(e.text)] : [e.text]));
  const devEx = readEkmanSplit(opts.dataDir, 'dev');
  console.log(`train ${trainEx.length} rows, dev ${devEx.length} rows (${opts.dataDir})`);

  const base = { lr: opts.lr, batch: 256, epochs: opts.epochs, seed: 20240611 };

  interface Candidate {
    config: FeatureConfig;
    minCount: number;
    hyper: Hyper;
    vocabulary: Map<string, number>;
    model: Model;
    epoch: number;
    devMacroF1: number;
  }
  let best: Candidate | undefined;
  const datasets = new Map<string, { vocabulary: Map<string, number>; trainSet: Dataset; devSet: Dataset }>();
  const run = (config: FeatureConfig, minCount: number, l2: number, alpha: number): Candidate => {
    const key = `${JSON.stringify(config)}/${minCount}`;
    let d = datasets.get(key);
    if (!d) {
      const vocabulary = buildVocabulary(vocabularyRows, config, minCount);
      d = {
        vocabulary,
        trainSet: buildDataset(trainEx, vocabulary, config),
        devSet: buildDataset(devEx, vocabulary, config),
      };
      datasets.clear(); // one feature set in memory at a time
      datasets.set(key, d);
    }
    const hyper: Hyper = { ...base, l2, alpha };
    const t = performance.now();
    const r = train(d.trainSet, d.devSet, d.vocabulary.size, hyper);
    console.log(
      `window=${config.negationWindow} lexicon=${config.lexicon} minCount=${minCount} vocab=${d.vocabulary.size} l2=${l2} alpha=${alpha}: ` +
        `dev macro-F1 ${fmt(r.devMacroF1)} at epoch ${r.epoch} [${r.curve.map((x) => x.toFixed(3)).join(' ')}] ` +
        `(${((performance.now() - t) / 1000).toFixed(1)} s)`,
    );
    const candidate = {
      config,
      minCount,
      hyper,
      vocabulary: d.vocabulary,
      model: r.model,
      epoch: r.epoch,
      devMacroF1: r.devMacroF1,
    };
    if (!best || candidate.devMacroF1 > best.devMacroF1) best = candidate;
    return candidate;
  };

  // Coordinate search on dev macro-F1 (a full grid would take several times as long):
  // 1. regularisation and class weighting on the default features;
  // 2. feature settings (negation window, lexicon, minCount) with the best of 1.
  const defaults: FeatureConfig = { negationWindow: 3, bigrams: true, lexicon: true };
  if (opts.quick) {
    run(defaults, 2, 1e-5, 0.5);
  } else {
    for (const l2 of [3e-6, 1e-5, 3e-5]) for (const alpha of [0, 0.5, 0.75]) run(defaults, 2, l2, alpha);
    const { l2, alpha } = best!.hyper;
    for (const negationWindow of [2, 4]) run({ ...defaults, negationWindow }, 2, l2, alpha);
    const window = best!.config.negationWindow;
    run({ ...defaults, negationWindow: window, lexicon: false }, 2, l2, alpha);
    run({ ...defaults, negationWindow: window }, 3, l2, alpha);
  }
  if (!best) throw new Error('no model trained');
  const trainSeconds = (performance.now() - t0) / 1000;

  // Quantise, then score the model exactly as it will run (GoEmotionsClassifier over the file).
  const vocabularyList = [...best.vocabulary.keys()];
  const file: EmotionModelFile = {
    format: WEIGHTS_FORMAT,
    attribution: GOEMOTIONS_ATTRIBUTION,
    labels: [...EMOTION_LABELS],
    features: {
      ...best.config,
      weighting: 'sublinear tf (1 + ln count), L2-normalised',
      vocabularySize: vocabularyList.length,
    },
    trainedAt: new Date().toISOString(),
    training: {
      script: 'bench/train-emotion.ts',
      model: 'multinomial logistic regression (softmax), mini-batch Adam + L2',
      multiLabelRows: 'target spread evenly over the gold labels',
      minCount: best.minCount,
      l2: best.hyper.l2,
      classWeightAlpha: best.hyper.alpha,
      learningRate: best.hyper.lr,
      batchSize: best.hyper.batch,
      epochs: best.epoch,
      seed: best.hyper.seed,
      selection: 'dev macro-F1',
      trainRows: originalTrain.length,
      asrStyleAugmentation: opts.augment,
      trainSeconds: Math.round(trainSeconds),
    },
    metrics: { dev: { macroF1: 0, accuracy: 0, perLabelF1: {} }, test: { macroF1: 0, accuracy: 0, perLabelF1: {} } },
    vocabulary: vocabularyList.join('\n'),
    weights: encodeWeights(best.model.w, K, 'int8'),
    bias: Array.from(best.model.b, (x) => Number(x.toFixed(6))),
  };
  const classifier = new GoEmotionsClassifier(file);
  const dev = evaluateEmotionModel(opts.dataDir, { split: 'dev', classifier });
  const test = evaluateEmotionModel(opts.dataDir, { split: 'test', classifier });
  const round = (m: typeof dev) => ({
    macroF1: Number(m.macroF1.toFixed(4)),
    accuracy: Number(m.accuracy.toFixed(4)),
    perLabelF1: Object.fromEntries(Object.entries(m.perLabelF1).map(([k, v]) => [k, Number(v.toFixed(4))])),
  });
  file.metrics = { dev: round(dev), test: round(test) };
  const devAsr = scorePredictions(
    devEx.map((e) => EMOTION_LABELS.indexOf(topLabel(classifier.classify(asrStyle(e.text))).label)),
    devEx.map((e) => e.labels),
  );
  file.training.devAsrStyle = {
    macroF1: Number(devAsr.macroF1.toFixed(4)),
    accuracy: Number(devAsr.accuracy.toFixed(4)),
  };
  const json = JSON.stringify(file, null, 1) + '\n';
  fs.writeFileSync(opts.out, json);

  console.log(
    `\nchosen: ${JSON.stringify({ ...best.config, minCount: best.minCount, l2: best.hyper.l2, alpha: best.hyper.alpha, epochs: best.epoch })}`,
  );
  console.log(
    `float dev macro-F1 ${fmt(best.devMacroF1)}; quantised dev macro-F1 ${fmt(dev.macroF1)} accuracy ${fmt(dev.accuracy)}`,
  );
  console.log(
    `dev, speech-transcript style (lowercase, no punctuation): macro-F1 ${fmt(devAsr.macroF1)} accuracy ${fmt(devAsr.accuracy)}`,
  );
  console.log(`test macro-F1 ${fmt(test.macroF1)} accuracy ${fmt(test.accuracy)}`);
  console.log(`test per-label F1 ${JSON.stringify(file.metrics.test.perLabelF1)}`);
  console.log(
    `wrote ${opts.out} (${(json.length / 1024).toFixed(0)} KiB, ${vocabularyList.length} features) in ${trainSeconds.toFixed(1)} s`,
  );
}

main();
