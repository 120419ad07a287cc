// Text handling for the full-text index: what is indexed, how a user's query becomes an FTS5 MATCH
// expression, and the snippet shown for a hit.

// Scripts written without spaces between words: indexed character by character.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u;
const CJK_ALL = new RegExp(CJK.source, 'gu');
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The indexed form: NFKC, CJK characters spaced apart so unicode61 makes each one a token. */
export function indexBody(text: string): string {
  return text.normalize('NFKC').replace(CJK_ALL, ' $& ');
}

interface QueryTerm {
  text: string;
  cjk: boolean;
}

/** Whitespace-separated words, split further into CJK and non-CJK runs. */
function queryTerms(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  for (const word of query.normalize('NFKC').split(/\s+/)) {
    let run = '';
    let runCjk = false;
    const flush = () => {
      const cleaned = run.replace(/"/g, '');
      if (cleaned && (runCjk || WORD_CHAR.test(cleaned))) terms.push({ text: cleaned, cjk: runCjk });
      run = '';
    };
    for (const ch of word) {
      const isCjk = CJK.test(ch);
      if (run && isCjk !== runCjk) flush();
      runCjk = isCjk;
      run += ch;
    }
    flush();
  }
  return terms;
}

/**
 * An FTS5 MATCH expression: every term must occur (AND); words match as prefixes ("meet" finds
 * "meeting"), CJK runs as exact character sequences. Null when the query has nothing searchable.
 */
export function matchExpression(query: string): string | null {
  const terms = queryTerms(query);
  if (terms.length === 0) return null;
  return terms.map((t) => (t.cjk ? `"${[...t.text].join(' ')}"` : `"${t.text}"*`)).join(' ');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Text around the first match, matched terms wrapped in [[ and ]], at most about `width` characters. */
export function makeSnippet(text: string, query: string, width = 160): string {
  const terms = queryTerms(query);
  const ranges: Array<[number, number]> = [];
  for (const term of terms) {
    const pattern = term.cjk
      ? new RegExp(escapeRegExp(term.text), 'gu')
      : new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term.text)}[\\p{L}\\p{N}]*`, 'giu');
    for (const m of text.matchAll(pattern)) ranges.push([m.index, m.index + m[0].length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  const first = merged[0]?.[0] ?? 0;
  let start = Math.max(0, first - Math.floor(width / 4));
  let end = Math.min(text.length, start + width);
  start = Math.max(0, Math.min(start, end - width));
  // Do not cut words in half when a space is near.
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < first && space - start < 20) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    const lastMatchEnd = merged.filter(([s]) => s < end).at(-1)?.[1] ?? 0;
    if (space > start && end - space < 20 && space >= lastMatchEnd) end = space;
  }
  let out = '';
  let cursor = start;
  for (const [s, e] of merged) {
    if (e <= start || s >= end) continue;
    const from = Math.max(s, start);
    const to = Math.min(e, end);
    out += text.slice(cursor, from) + '[[' + text.slice(from, to) + ']]';
    cursor = to;
  }
  out += text.slice(cursor, end);
  return `${start > 0 ? '…' : ''}${out.trim()}${end < text.length ? '…' : ''}`;
}
