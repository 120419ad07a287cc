// What is wrong with a pasted line, in the UI's language: main names the line and a closed problem code
// (src-shared/ipc-contract.ts, IMPORT_LINE_PROBLEMS); the words are only here.
import type { ImportLineProblem, ImportLineProblemCode } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import type { T } from '../../i18n/use-t';

/** The limit a problem is about, said in its message. */
const MAX: Partial<Record<ImportLineProblemCode, number>> = {
  'word-too-long': LIMITS.word,
  'reading-too-long': LIMITS.reading,
  'pattern-too-long': LIMITS.pattern,
  'replacement-too-long': LIMITS.replacement,
};

/** Why the line cannot be imported. */
export function importProblemText(t: T, problem: ImportLineProblemCode): string {
  const max = MAX[problem];
  return t(`dict.import.problem.${problem}`, max === undefined ? undefined : { max });
}

/** "Line 3", as the list names a bad line. */
export function importLineLabel(t: T, problem: ImportLineProblem): string {
  return t('dict.import.problem.line', { line: problem.line });
}

/** The text from line `first` (1-based) on: what a partly finished import leaves to send again. */
export function linesFrom(text: string, first: number): string {
  return text
    .split(/\r?\n/)
    .slice(first - 1)
    .join('\n');
}
