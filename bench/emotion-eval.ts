// Evaluation of the English emotion classifier on the GoEmotions Ekman splits
// ("GoEmotions, Demszky et al. 2020", CC BY 4.0). The data is not in the repository: pass the
// directory that holds ekman_{train,dev,test}.tsv (e.g. ../shared/data/goemotions-ekman).
//
// Scoring: the model predicts one label; a row may carry several gold labels (about 6% do).
// Accuracy counts a prediction as right when it is one of the gold labels. Per-label F1 treats
// gold labels as sets: TP(l) = predicted l and l is gold, FP(l) = predicted l and l is not gold,
// FN(l) = l is gold but not predicted. Macro-F1 is the unweighted mean over the 7 labels.
import fs from 'node:fs';
import path from 'node:path';
import { EMOTION_LABELS } from '../src-shared/analysis.js';
import { topLabel } from '../src-server/engines/emotion/emotion-scores.js';
import {
  type GoEmotionsClassifier,
  getDefaultClassifier,
  type SplitMetrics,
} from '../src-server/engines/emotion/goemotions-classifier.js';

export interface EkmanExample {
  text: string;
  /** Label ids (indices into EMOTION_LABELS), in file order. */
  labels: number[];
}

export type EkmanSplit = 'train' | 'dev' | 'test';

/** Reads ekman_<split>.tsv: `text<TAB>comma-separated label ids<TAB>comment id`. */
export function readEkmanSplit(dataDir: string, split: EkmanSplit): EkmanExample[] {
  checkLabels(dataDir);
  const file = path.join(dataDir, `ekman_${split}.tsv`);
  const out: EkmanExample[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const [text, ids] = line.split('\t');
    if (text === undefined || ids === undefined) throw new Error(`${file}: malformed line: ${line.slice(0, 80)}`);
    const labels = ids.split(',').map((s) => Number.parseInt(s, 10));
    if (labels.some((l) => !(l >= 0 && l < EMOTION_LABELS.length))) throw new Error(`${file}: bad label ids "${ids}"`);
    out.push({ text, labels });
  }
  return out;
}

/** The label ids in the data must mean what EMOTION_LABELS says. */
function checkLabels(dataDir: string): void {
  const file = path.join(dataDir, 'ekman_labels.txt');
  if (!fs.existsSync(file)) return;
  const labels = fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (labels.join() !== EMOTION_LABELS.join())
    throw new Error(`${file}: labels ${labels.join()} differ from EMOTION_LABELS`);
}

/** Scores single-label predictions against (possibly multi-label) gold sets; see the header. */
export function scorePredictions(predicted: readonly number[], gold: readonly (readonly number[])[]): SplitMetrics {
  const k = EMOTION_LABELS.length;
  const tp = new Array<number>(k).fill(0);
  const fp = new Array<number>(k).fill(0);
  const fn = new Array<number>(k).fill(0);
  let correct = 0;
  predicted.forEach((p, i) => {
    const g = gold[i]!;
    if (g.includes(p)) {
      correct++;
      tp[p]!++;
    } else {
      fp[p]!++;
    }
    for (const l of new Set(g)) if (l !== p) fn[l]!++;
  });
  const perLabelF1: Record<string, number> = {};
  let sum = 0;
  EMOTION_LABELS.forEach((label, l) => {
    const denom = 2 * tp[l]! + fp[l]! + fn[l]!;
    const f1 = denom === 0 ? 0 : (2 * tp[l]!) / denom;
    perLabelF1[label] = f1;
    sum += f1;
  });
  return { macroF1: sum / k, accuracy: predicted.length === 0 ? 0 : correct / predicted.length, perLabelF1 };
}

/** Macro-F1, accuracy and per-label F1 of a classifier (default: the committed model) on a split. */
export function evaluateEmotionModel(
  dataDir: string,
  {
    split = 'test',
    classifier = getDefaultClassifier(),
  }: { split?: EkmanSplit; classifier?: GoEmotionsClassifier } = {},
): SplitMetrics {
  const examples = readEkmanSplit(dataDir, split);
  const predicted = examples.map((e) => EMOTION_LABELS.indexOf(topLabel(classifier.classify(e.text)).label));
  return scorePredictions(
    predicted,
    examples.map((e) => e.labels),
  );
}
