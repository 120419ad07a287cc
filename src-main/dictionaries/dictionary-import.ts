// Parses pasted or CSV lines into dictionary entries: "word,reading" for words; "pattern => replacement"
// or "pattern,replacement" for replacement rules. Blank lines and a header line are skipped.
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

const refuse = (line: number, message: string): never => {
  throw new AppFailure({ code: 'validation', field: 'text', reason: 'import-line', params: { line }, detail: message });
};

export function parseWords(text: string): Array<{ word: string; reading?: string }> {
  const entries: Array<{ word: string; reading?: string }> = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/^\uFEFF/, '');
    if (!line.trim()) return;
    const [word = '', reading = '', ...rest] = splitCsvLine(line);
    if (index === 0 && word.toLowerCase() === 'word' && (reading === '' || reading.toLowerCase() === 'reading')) return;
    if (rest.some((f) => f !== '')) refuse(index + 1, 'expected "word,reading" (two fields at most).');
    if (!word) refuse(index + 1, 'the word is empty.');
    if (word.length > 200) refuse(index + 1, 'the word is longer than 200 characters.');
    if (reading.length > 400) refuse(index + 1, 'the reading is longer than 400 characters.');
    entries.push(reading ? { word, reading } : { word });
  });
  if (entries.length === 0) throw new AppFailure({ code: 'validation', field: 'text', reason: 'import-no-words' });
  return entries;
}

export function parseReplacementRules(text: string): Array<{ pattern: string; replacement: string }> {
  const entries: Array<{ pattern: string; replacement: string }> = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/^\uFEFF/, '');
    if (!line.trim()) return;
    let pattern: string;
    let replacement: string;
    const arrow = line.indexOf('=>');
    if (arrow !== -1) {
      pattern = line.slice(0, arrow).trim();
      replacement = line.slice(arrow + 2).trim();
    } else {
      const fields = splitCsvLine(line);
      if (fields.length !== 2) refuse(index + 1, 'expected "pattern => replacement" or "pattern,replacement".');
      [pattern, replacement] = fields as [string, string];
      if (index === 0 && pattern.toLowerCase() === 'pattern' && replacement.toLowerCase() === 'replacement') return;
    }
    if (!pattern) refuse(index + 1, 'the pattern is empty.');
    if (pattern.length > 200 || replacement.length > 200)
      refuse(index + 1, 'patterns and replacements have at most 200 characters.');
    entries.push({ pattern, replacement });
  });
  if (entries.length === 0) throw new AppFailure({ code: 'validation', field: 'text', reason: 'import-no-rules' });
  return entries;
}
