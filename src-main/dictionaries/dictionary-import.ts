// Parses pasted or CSV lines into dictionary entries: "word,reading" for words; "pattern => replacement"
// or "pattern,replacement" for replacement rules. Blank lines and a header line are skipped. Every line is
// checked, and a bad one is named by its number with a closed problem code the renderer words: nothing
// here is said to the user in English.
import type { ImportLineProblem, ImportLineProblemCode } from '../../src-shared/ipc-contract.js';
import { LIMITS } from '../../src-shared/limits.js';
import { isPronounceableReading } from '../../src-shared/word-reading.js';
import { AppFailure } from '../app-failure.js';

export type ImportKind = 'words' | 'replacement-rules';

/** One CSV (or tab-separated) line: fields split on the first separator found, "quoted, fields" kept whole. */
export function splitCsvLine(line: string): string[] {
  const separator = line.includes('\t') && !line.includes(',') ? '\t' : ',';
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        current += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else current += ch;
    } else if (ch === '"' && current.trim() === '') {
      quoted = true;
      current = '';
    } else if (ch === separator) {
      fields.push(current.trim());
      current = '';
    } else current += ch;
  }
  fields.push(current.trim());
  return fields;
}

/** One entry and the line it came from (1-based). */
export interface ParsedLine<E> {
  line: number;
  entry: E;
}

/** The good lines' entries and the bad lines, each in the order of the text. */
export interface ParsedImport<E> {
  entries: ParsedLine<E>[];
  problems: ImportLineProblem[];
}

export type WordEntry = { word: string; reading?: string };
export type ReplacementRuleEntry = { pattern: string; replacement: string };

/** Characters as the server's schema counts them (code points, not UTF-16 units). */
const length = (text: string): number => [...text].length;

/**
 * Checks every line, the header line skipped. `check` answers the line's entry, a problem code, or null
 * for a header. Refuses text with no line at all (blank lines only).
 */
function parseLines<E extends object>(
  text: string,
  check: (line: string, first: boolean) => E | ImportLineProblemCode | null,
  none: 'import-no-words' | 'import-no-rules',
): ParsedImport<E> {
  const entries: ParsedLine<E>[] = [];
  const problems: ImportLineProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/^\uFEFF/, '');
    if (!line.trim()) return;
    const result = check(line, index === 0);
    if (result === null) return;
    if (typeof result === 'string') problems.push({ line: index + 1, text: line, problem: result });
    else entries.push({ line: index + 1, entry: result });
  });
  if (entries.length === 0 && problems.length === 0)
    throw new AppFailure({ code: 'validation', field: 'text', reason: none });
  return { entries, problems };
}

/** A words line: "word" or "word,reading". */
export function checkWordLine(line: string, first = false): WordEntry | ImportLineProblemCode | null {
  const [word = '', reading = '', ...rest] = splitCsvLine(line);
  if (first && word.toLowerCase() === 'word' && (reading === '' || reading.toLowerCase() === 'reading')) return null;
  if (rest.some((f) => f !== '')) return 'too-many-fields';
  if (!word) return 'word-empty';
  if (length(word) > LIMITS.word) return 'word-too-long';
  if (length(reading) > LIMITS.reading) return 'reading-too-long';
  if (!isPronounceableReading(reading)) return 'reading-unpronounceable';
  return reading ? { word, reading } : { word };
}

/** A replacement rules line: "pattern => replacement" or "pattern,replacement". */
export function checkReplacementRuleLine(
  line: string,
  first = false,
): ReplacementRuleEntry | ImportLineProblemCode | null {
  let pattern: string;
  let replacement: string;
  const arrow = line.indexOf('=>');
  if (arrow !== -1) {
    pattern = line.slice(0, arrow).trim();
    replacement = line.slice(arrow + 2).trim();
  } else {
    const fields = splitCsvLine(line);
    if (fields.length !== 2) return 'rule-format';
    [pattern, replacement] = fields as [string, string];
    if (first && pattern.toLowerCase() === 'pattern' && replacement.toLowerCase() === 'replacement') return null;
  }
  if (!pattern) return 'pattern-empty';
  if (length(pattern) > LIMITS.pattern) return 'pattern-too-long';
  if (length(replacement) > LIMITS.replacement) return 'replacement-too-long';
  return { pattern, replacement };
}

export function parseWords(text: string): ParsedImport<WordEntry> {
  return parseLines(text, checkWordLine, 'import-no-words');
}

export function parseReplacementRules(text: string): ParsedImport<ReplacementRuleEntry> {
  return parseLines(text, checkReplacementRuleLine, 'import-no-rules');
}
