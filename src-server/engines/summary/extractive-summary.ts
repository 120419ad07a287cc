// Extractive meeting summary without a language model: TextRank over sentence units for the overview
// and key points, and rules for action items (with owner and due date), decisions and dates.
//
// Units are sentences where the transcript is punctuated. The embedded speech engine gives lowercase
// text without punctuation, one voice-activity utterance per segment: there a segment is cut into
// clauses at likely clause starts ("... too high alice will send ...", "okay ..."), and anything
// still long into chunks of about 25 words. Every unit keeps its segment id and times, refined to the
// words it covers when the segment's words line up with its text.
//
// English uses wink-nlp (POS, lemmas, DATE/TIME entities); Japanese uses kuromoji. Both load their
// models from their npm packages, lazily on first use.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IpadicFeatures, Tokenizer } from 'kuromoji';
import type { ItsFunction, WinkMethods } from 'wink-nlp';
import type { ActionItem, SummaryDetails, SummaryItem } from '../../../src-shared/analysis.js';
import type { TranscriptDocument, TranscriptSegment } from '../../../src-shared/transcript-document.js';
import type { AnalysisInput, SummaryEngine, SummaryResult } from '../analysis/analysis-engines.js';

// ---------------------------------------------------------------------------------------------
// Units

/** A date or time expression in a unit. */
export interface DateMention {
  /** As said: "friday", "next tuesday", "金曜日". */
  text: string;
  /** With the word that makes it a deadline when there is one: "by friday", "金曜日までに". */
  due: string;
  /** Whether it reads as a deadline ("by", "before", "until", "まで"). */
  deadline: boolean;
  /** Position in the unit's `normal` text. */
  at: number;
}

/** A sentence or clause of the transcript: what the summary ranks and quotes. */
export interface TextUnit {
  index: number;
  segment_id: number;
  start: number;
  end: number;
  speaker: string | null;
  /** As said, trimmed of leading fillers. */
  text: string;
  /** Readable form: capitalised and ending with punctuation when the transcript had none. */
  display: string;
  /** Lowercased, normalised text the rules read (English: contractions expanded, tokens space-separated). */
  normal: string;
  /** Content-word lemmas, stop words removed: the TextRank vocabulary. */
  terms: string[];
  /** Keyword candidates: nouns and noun compounds (lemmas). */
  phrases: string[];
  dates: DateMention[];
  /** English only: the tokens behind `normal`, for the rules that need parts of speech. */
  tokens: WordToken[];
  /** The transcript had no casing for this unit (all lowercase), as from the embedded speech engine. */
  uncased: boolean;
}

export interface WordToken {
  value: string;
  normal: string;
  lemma: string;
  pos: string;
  stop: boolean;
  /** Offset of the token in the unit's `normal`. */
  at: number;
}

interface Found {
  owner: string | null;
  due: string | null;
}

interface LanguageRules {
  units(document: TranscriptDocument, signal: AbortSignal): Promise<TextUnit[]>;
  actionItem(unit: TextUnit, context: DocumentContext): Found | null;
  isDecision(unit: TextUnit): boolean;
  topicsLead(topics: string[]): string;
  emptyOverview: string;
}

interface DocumentContext {
  /** Lemmas seen after a determiner or possessive somewhere: common nouns, not names. */
  determinedNouns: Set<string>;
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

const require = createRequire(import.meta.url);

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw signal.reason instanceof Error ? signal.reason : new Error('The summary was cancelled.');
  }
}

/** Start/end of a character range of a segment's text, from its words when they line up with the text. */
function spanTimes(segment: TranscriptSegment, text: string, from: number, to: number): { start: number; end: number } {
  const words = segment.words.filter((w) => w.word);
  if (words.length === 0 || words.map((w) => w.word).join(' ') !== text) return { start: segment.start, end: segment.end };
  const wordAt = (offset: number) => {
    let n = 0;
    for (let i = 0; i < offset && i < text.length; i++) if (text[i] === ' ') n++;
    return Math.min(n, words.length - 1);
  };
  const first = words[wordAt(from)]!;
  const last = words[wordAt(Math.max(from, to - 1))]!;
  return { start: first.start, end: Math.max(first.start, last.end) };
}

/** What speech recognisers leave in text: silence and noise tokens ("<sil>", "[noise]", "++um++"). */
const RECOGNISER_MARKUP = /<\/?(?:s|sil|unk|noise)>|\[(?:noise|laugh(?:ter)?|music|sil|silence|breath|cough|um|uh|inaudible|unk)\]|\+\+[a-z]*\+\+/gi;

/** Removes recogniser markup such as "<sil>", "[noise]", "++um++". */
function stripMarkup(text: string): string {
  return text
    .replace(RECOGNISER_MARKUP, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function formatTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}

/** Index of the element of sorted `starts` at or before `offset`. */
function indexAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// ---------------------------------------------------------------------------------------------
// TextRank

/**
 * PageRank over units linked by shared content words. An edge's weight is the idf-weighted overlap
 * of the two units' terms, normalised by their lengths (Mihalcea & Tarau's similarity).
 */
export function textRank(termLists: readonly (readonly string[])[], { damping = 0.85, iterations = 60, tolerance = 1e-6 } = {}): number[] {
  const n = termLists.length;
  if (n === 0) return [];
  const sets = termLists.map((terms) => [...new Set(terms)]);
  const df = new Map<string, number[]>();
  sets.forEach((terms, i) => {
    for (const t of terms) {
      const list = df.get(t);
      if (list) list.push(i);
      else df.set(t, [i]);
    }
  });
  // Sparse symmetric weights, accumulated through the inverted index.
  const weights: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  for (const units of df.values()) {
    if (units.length < 2) continue;
    const idf = Math.log(1 + n / units.length);
    for (let a = 0; a < units.length; a++) {
      const i = units[a]!;
      for (let b = a + 1; b < units.length; b++) {
        const j = units[b]!;
        weights[i]!.set(j, (weights[i]!.get(j) ?? 0) + idf);
      }
    }
  }
  const norm = sets.map((s) => Math.log(2 + s.length));
  const edges: Array<Array<[number, number]>> = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    for (const [j, overlap] of weights[i]!) {
      const w = overlap / (norm[i]! + norm[j]!);
      edges[i]!.push([j, w]);
      edges[j]!.push([i, w]);
    }
  }
  const outWeight = edges.map((list) => list.reduce((sum, [, w]) => sum + w, 0));
  let scores = new Array<number>(n).fill(1);
  for (let iter = 0; iter < iterations; iter++) {
    const next = new Array<number>(n).fill(1 - damping);
    for (let j = 0; j < n; j++) {
      if (outWeight[j] === 0) continue;
      const share = (damping * scores[j]!) / outWeight[j]!;
      for (const [i, w] of edges[j]!) next[i]! += share * w;
    }
    let delta = 0;
    for (let i = 0; i < n; i++) delta = Math.max(delta, Math.abs(next[i]! - scores[i]!));
    scores = next;
    if (delta < tolerance) break;
  }
  return scores;
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a);
  const sb = new Set(b);
  let both = 0;
  for (const t of sa) if (sb.has(t)) both++;
  const union = sa.size + sb.size - both;
  return union === 0 ? 0 : both / union;
}

// ---------------------------------------------------------------------------------------------
// English

const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const MONTHS = 'january|february|april|june|july|august|september|october|november|december|jan|feb|apr|jun|jul|aug|sep|sept|oct|nov|dec';
const NUMBER_WORDS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve';
const ORDINAL_WORDS =
  '(?:twenty |thirty )?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth';
const DAY_OF_MONTH = String.raw`(?: (?:the )?(?:\d{1,2}(?:st|nd|rd|th)?|${ORDINAL_WORDS}))`;
const EXTRA_DATES = new RegExp(
  [
    String.raw`end of (?:the )?(?:day|week|month|quarter|year|sprint)`,
    String.raw`close of business|eod|eow|eom|cob`,
    String.raw`(?:this|next|last) (?:week|month|quarter|year|sprint|weekend|morning|afternoon|evening)`,
    String.raw`(?:today|tomorrow|tonight|yesterday)(?: (?:morning|afternoon|evening|night))?`,
    String.raw`(?:(?:this|next|last|on) )?(?:${WEEKDAYS})s?(?: (?:morning|afternoon|evening))?`,
    String.raw`(?:(?:early|mid|late|end of|in|by|on|until|before|since) )?(?:march|may)(?:${DAY_OF_MONTH}|\b(?! (?:be|need|have|want|go|take|on|ahead|not|also|still)\b))`,
    String.raw`(?:${MONTHS})${DAY_OF_MONTH}?`,
    String.raw`in (?:a|one|two|three|four|\d+) (?:days?|weeks?|months?)`,
    String.raw`(?:\d{1,2}|${NUMBER_WORDS})(?:[: ](?:\d\d|fifteen|thirty|forty five))? ?(?:am|pm|a m|p m|o'clock|oclock)`,
  ].join('|'),
  'g',
);
const DATE_WORDS = new Set(
  `${WEEKDAYS}|${MONTHS}|march|today|tomorrow|tonight|yesterday|week|month|quarter|year|day|morning|afternoon|evening|eod|noon|weekend|sprint`.split('|'),
);

const PERSON_PRONOUNS = new Set(['i', 'we', 'you', 'he', 'she', 'they']);
const NOT_A_NAME = new Set([
  'it', 'this', 'that', 'there', 'which', 'what', 'who', 'these', 'those', 'one', 'everything', 'nothing',
  'something', 'anything', 'thing', 'things', 'lot', 'way', 'time', 'people', 'yes', 'no', 'okay', 'ok',
  'yeah', 'right', 'well', 'so', 'now', 'then', 'also', 'just', 'really', 'thanks', 'thank', 'please',
  'here', 'where', 'how', 'why', 'when', 'all', 'both', 'each', 'some', 'any', 'many', 'much', 'more', 'most',
]);
const INTERJECTION_LIKE = new Set(['great', 'good', 'fine', 'nice', 'cool', 'right', 'sure', 'perfect', 'awesome', 'excellent', 'sorry', 'thanks', 'wow', 'hey', 'guys', 'folks', 'team', 'everyone']);
const GROUP_OWNERS = new Set(['everyone', 'everybody', 'someone', 'somebody', 'anyone', 'anybody']);
const TEAM_WORDS = new Set(['team', 'group', 'department', 'squad']);
const POSSESSIVES = new Set(['my', 'our', 'your', 'their', 'his', 'her', 'its', 'the', 'a', 'an', 'this', 'that', 'these', 'those', 'some', 'every', 'each', 'any', 'no']);

/** Words that carry no topic in meeting talk, on top of wink's stop words. */
const EN_EXTRA_STOP = new Set(
  (
    'be have do get go say think know want let okay ok yeah yes um uh hmm like gonna wanna gotta really just well right kind sort ' +
    'mean see guess good great nice sure thing things lot way thank thanks everyone everybody anyone someone something anything ' +
    'today morning time question probably maybe actually basically also still even much many little bit come take put look need ' +
    'will would could should can may might must also already yet again here there now then hello hi bye alright'
  ).split(' '),
);
const EN_FILLERS = new Set(['and', 'so', 'but', 'okay', 'ok', 'um', 'uh', 'well', 'alright', 'anyway', 'like', 'hmm', 'oh', 'then', 'or']);
const CLAUSE_MARKERS = new Set(['okay', 'ok', 'alright', 'anyway']);
const COMPLEMENT_TAKERS = new Set([
  'think', 'thought', 'guess', 'know', 'knew', 'say', 'said', 'says', 'mean', 'hope', 'believe', 'feel', 'suppose',
  'sure', 'if', 'when', 'because', 'that', 'than', 'as', 'what', 'where', 'how', 'why', 'which', 'who', 'whether',
  'until', 'unless', 'before', 'after', 'since', 'while', 'thank', 'let', 'make', 'tell', 'told', 'ask', 'asked',
  'see', 'saw', 'heard', 'hear', 'remember', 'realize', 'realized', 'notice', 'noticed', 'and', 'or', 'but', 'so',
]);
const SUBJECT_MODALS = new Set(['will', 'shall', 'should', 'must', 'needs', 'need', 'has', 'can', 'could', 'would', 'is', 'are', 'am', 'was', 'were', 'might', 'may']);
const NAME_MODALS = new Set(['will', 'shall', 'should', 'must', 'needs', 'need']);
const LEADING_ADVERBS = new Set(['also', 'then', 'just', 'really', 'probably', 'definitely', 'still', 'all', 'actually', 'personally', 'both', 'first']);

type WinkLoad = { nlp: WinkMethods };
let winkLoaded: WinkLoad | undefined;
async function wink(): Promise<WinkLoad> {
  if (!winkLoaded) {
    const [{ default: winkNLP }, { default: model }] = await Promise.all([import('wink-nlp'), import('wink-eng-lite-web-model')]);
    winkLoaded = { nlp: winkNLP(model) };
  }
  return winkLoaded;
}

interface RawToken extends WordToken {
  /** Offset in the cleaned segment text. */
  from: number;
  to: number;
  isWord: boolean;
}

class EnglishRules implements LanguageRules {
  readonly emptyOverview = 'Nothing was said in this recording.';

  topicsLead(topics: string[]): string {
    return topics.length ? `Main topics: ${topics.join(', ')}.` : '';
  }

  async units(document: TranscriptDocument, signal: AbortSignal): Promise<TextUnit[]> {
    const { nlp } = await wink();
    const its = nlp.its;
    const units: TextUnit[] = [];
    for (const [n, segment] of document.segments.entries()) {
      if (n % 50 === 0) throwIfAborted(signal);
      const clean = stripMarkup(segment.text);
      if (!clean) continue;
      const doc = nlp.readDoc(clean);
      const values = doc.tokens().out(its.value) as string[];
      const normals = doc.tokens().out(its.normal) as string[];
      // Typed with an addons parameter that ItsFunction does not declare.
      const lemmas = doc.tokens().out(its.lemma as unknown as ItsFunction<string>) as string[];
      const poses = doc.tokens().out(its.pos) as string[];
      const stops = doc.tokens().out(its.stopWordFlag) as unknown as boolean[];
      const types = doc.tokens().out(its.type) as string[];
      let cursor = 0;
      const tokens: RawToken[] = values.map((value, i) => {
        const found = clean.indexOf(value, cursor);
        const from = found >= 0 ? found : cursor;
        cursor = found >= 0 ? found + value.length : cursor;
        const type = types[i] ?? 'word';
        return {
          value,
          normal: (normals[i] ?? value).toLowerCase().replace(/\s+/g, '_'),
          lemma: (lemmas[i] ?? value).toLowerCase(),
          pos: poses[i] ?? 'X',
          stop: Boolean(stops[i]),
          at: 0,
          from,
          to: from + value.length,
          isWord: type === 'word' || type === 'number' || type === 'ordinal',
        };
      });
      if (tokens.length === 0) continue;
      const punctuated = /[.!?;]/.test(clean);
      const uncased = clean === clean.toLowerCase();
      const entityDetails = doc.entities().out(its.detail) as unknown as Array<{ value: string; type: string }>;
      const entitySpans = (doc.entities().out(its.span) as unknown as number[][]).map((span, i) => ({
        from: span[0]!,
        to: span[1]!,
        detail: entityDetails[i] ?? { value: '', type: '' },
      }));
      const sentenceSpans = punctuated ? (doc.sentences().out(its.span) as unknown as number[][]) : [[0, tokens.length - 1]];
      for (const span of sentenceSpans) {
        const [a, b] = [span[0]!, span[1]!];
        const wordCount = countWords(tokens, a, b);
        const pieces = !punctuated || wordCount > 35 ? splitClauses(tokens, a, b) : [[a, b] as [number, number]];
        for (const [pa, pb] of pieces.flatMap(([x, y]) => chunk(tokens, x, y))) {
          const unit = this.makeUnit(segment, clean, tokens, pa, pb, uncased, entitySpans, units.length);
          if (unit) units.push(unit);
        }
      }
    }
    return units;
  }

  private makeUnit(
    segment: TranscriptSegment,
    clean: string,
    all: RawToken[],
    a: number,
    b: number,
    uncased: boolean,
    entities: Array<{ from: number; to: number; detail: { value: string; type: string } }>,
    index: number,
  ): TextUnit | null {
    // Leading fillers and conjunctions are not part of what the unit says.
    while (a < b && EN_FILLERS.has(all[a]!.normal)) a++;
    while (a < b && !all[a]!.isWord && all[a]!.pos === 'PUNCT') a++;
    const slice = all.slice(a, b + 1);
    if (!slice.some((t) => t.isWord)) return null;
    const text = clean.slice(slice[0]!.from, slice[slice.length - 1]!.to).trim();
    let normal = '';
    const tokens: WordToken[] = slice.map((t) => {
      if (normal) normal += ' ';
      const token = { value: t.value, normal: t.normal, lemma: t.lemma, pos: t.pos, stop: t.stop, at: normal.length };
      normal += t.normal;
      return token;
    });
    const starts = tokens.map((t) => t.at);
    const dates = findEnglishDates(tokens, normal, starts, entities, a, b);
    const terms: string[] = [];
    const phrases: string[] = [];
    let run: string[] = [];
    const flush = () => {
      if (run.length >= 2) phrases.push(run.slice(-3).join(' '));
      run = [];
    };
    for (const t of tokens) {
      const contentPos = t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'VERB' || t.pos === 'ADJ';
      const lemma = t.lemma.replace(/[^a-z0-9'-]/g, '');
      const usable = contentPos && !t.stop && lemma.length > 1 && !EN_EXTRA_STOP.has(lemma) && !/^\d+$/.test(lemma);
      if (usable) terms.push(lemma);
      if ((t.pos === 'NOUN' || t.pos === 'PROPN') && usable && !DATE_WORDS.has(lemma)) {
        // Topics read as said, but plural nouns count with their singular ("clusters" as "cluster").
        const word = t.normal.endsWith('s') && lemma.length < t.normal.length && t.normal.startsWith(lemma.slice(0, -1)) ? lemma : t.normal;
        phrases.push(word);
        run.push(word);
      } else flush();
    }
    flush();
    const times = spanTimes(segment, segment.text, slice[0]!.from, slice[slice.length - 1]!.to);
    return {
      index,
      segment_id: segment.id,
      start: times.start,
      end: times.end,
      speaker: segment.speaker,
      text,
      display: readable(text, uncased),
      normal,
      terms,
      phrases,
      dates,
      tokens,
      uncased,
    };
  }

  actionItem(unit: TextUnit, context: DocumentContext): Found | null {
    const { normal, tokens } = unit;
    if (/^(?:did|have|has|had)\b/.test(normal)) return null;
    const starts = tokens.map((t) => t.at);
    const tokenAt = (offset: number) => indexAt(starts, offset);
    const past = /\b(?:was|were|did|had|yesterday|last (?:week|month|time)|ago|already)\b/.test(normal);
    let cue: { at: number; owner: string | null } | null = null;
    const take = (at: number, owner: string | null) => {
      if (!cue || (owner && !cue.owner)) cue = { at, owner: owner ?? cue?.owner ?? null };
    };

    // "alice will send", "we need to", "i am going to", "bob should".
    const commitment =
      /\b([a-z][a-z'_-]*) (?:(?:also|then|just|really|probably|definitely|still|all|personally|both|first) )*(will|shall|is going to|are going to|am going to|needs to|need to|has to|have to|got to|gotta|should|must|is responsible for|are responsible for|can take care of|is supposed to|are supposed to|volunteered to|offered to|promised to) (?:(?:also|then|just|really|probably|definitely|still|all|personally|both|first|quickly|please) )*([a-z][a-z'_-]*)(?: ([a-z][a-z'_-]*))?/g;
    for (const m of normal.matchAll(commitment)) {
      const subject = m[1]!;
      const verb = m[3]!;
      const after = m[4] ?? '';
      if (verb === 'not' || verb === 'never' || verb === 'n\'t') continue;
      if (verb === 'be' && !/ing$/.test(after) && !['responsible', 'in', 'the', 'handling', 'sending', 'doing', 'working', 'taking', 'looking'].includes(after)) continue;
      if (m[2] === 'should' && verb === 'have') continue; // "should have": regret, not a task
      if (verb === 'go' && after === 'with') continue; // "we will go with X": a decision
      const si = tokenAt(m.index!);
      const before = tokens.slice(Math.max(0, si - 3), si).map((t) => t.normal);
      if (before.includes('if') || before.includes('whether') || before.includes('maybe')) continue;
      const owner = this.ownerOf(tokens, si, subject, unit, context);
      if (owner === undefined) continue;
      take(m.index!, owner);
    }
    // Requests: "can you send", "could you please draft".
    for (const m of normal.matchAll(/\b(?:can|could|would|will) you (?:(?:please|also|all|just) )*([a-z]+)/g)) {
      if (/^(?:hear|see|believe|imagine|guess|think|feel|understand|repeat|say|speak|be|tell|remember|do)$/.test(m[1]!)) continue;
      take(m.index!, this.vocative(unit) ?? 'you');
    }
    const somebody = /\b(?:can|could|would|will) (?:somebody|someone|anybody|anyone) (?:please )?(?!hear|see|tell|remind|explain)[a-z]+/.exec(normal);
    if (somebody) take(somebody.index, null);
    const please = /\bplease (?!note|welcome|excuse)/.exec(normal);
    if (please) take(please.index, this.vocative(unit));
    // "let's get started", "let's move on": running the meeting, not a task.
    const lets = /\blet(?:'s| us|s)\b(?! (?:see|say|think|just say|be honest|hope|get started|start|begin|move on|turn to|go (?:on|over|through|back|to|with|ahead with)|talk about|look at|discuss|wrap up|get going|continue|recap|jump|dive|take a look|switch to|come back|quickly go))/.exec(normal);
    if (lets) take(lets.index, 'we');
    const letMe = /\blet me (?!see|think|know|check if|guess|ask)/.exec(normal);
    if (letMe) take(letMe.index, this.speakerOr(unit, 'I'));
    // Explicit markers.
    const assigned = /\b(?:assign(?:ed|s)?|hand(?:ed)?(?: over)?|delegate(?:d)?)(?: [a-z]+){0,4}? to ([a-z]+)\b/.exec(normal);
    if (assigned) {
      const ti = tokenAt(assigned.index + assigned[0].length - assigned[1]!.length);
      const who = PERSON_PRONOUNS.has(assigned[1]!) || assigned[1] === 'me' || assigned[1] === 'us' ? assigned[1]! : this.nameOrNull(assigned[1]!, tokens, ti, unit, context, true);
      take(assigned.index, who === 'me' ? this.speakerOr(unit, 'I') : who);
    }
    const responsible = /\b([a-z]+) (?:is|will be) (?:responsible|in charge|the owner)\b/.exec(normal);
    if (responsible) {
      const owner = this.ownerOf(tokens, tokenAt(responsible.index), responsible[1]!, unit, context);
      if (owner !== undefined) take(responsible.index, owner);
    }
    const minutes = /(?:^|action items? :? ?|to-?dos? :? ?)([a-z]+) to ([a-z]+)/.exec(normal);
    if (minutes && !['need', 'going', 'have', 'want', 'like', 'able', 'due', 'how', 'what'].includes(minutes[1]!)) {
      const ti = tokenAt(minutes.index + minutes[0].length - minutes[1]!.length - minutes[2]!.length - 4);
      const owner = this.nameOrNull(minutes[1]!, tokens, ti, unit, context);
      if (owner) take(minutes.index, owner);
    }
    const explicit = /\b(?:action items?|to-?dos?|make sure|follow(?:ing)? up|follow-up|take care of|deadline|due (?:on|by|date)|next steps?|remember to|(?:do not|don't|dont) forget to)\b/.exec(normal);
    if (explicit && !(past && /^follow/.test(explicit[0]))) take(explicit.index, null);
    // "... by friday": a deadline on something still to do.
    const deadline = unit.dates.find((d) => d.deadline);
    if (!cue && deadline && !past && tokens.some((t) => t.pos === 'VERB')) take(0, null);
    const found = cue as { at: number; owner: string | null } | null;
    if (!found) return null;
    return { owner: found.owner, due: pickDue(unit.dates, found.at) };
  }

  /** Owner for a subject word before a modal: a name, a pronoun, null for "someone", undefined when it is not a person. */
  private ownerOf(tokens: WordToken[], si: number, subject: string, unit: TextUnit, context: DocumentContext): string | null | undefined {
    if (PERSON_PRONOUNS.has(subject)) {
      // "tom and i will …": both.
      if ((subject === 'i' || subject === 'we') && tokens[si - 1]?.normal === 'and' && tokens[si - 2]) {
        const partner = this.nameOrNull(tokens[si - 2]!.normal, tokens, si - 2, unit, context);
        if (partner) return `${partner} and ${subject === 'i' ? this.speakerOr(unit, 'I') : 'we'}`;
      }
      // "sarah said she will …": the name said.
      if (subject === 'he' || subject === 'she') {
        const reported = /^([a-z]+) (?:said|says|mentioned|confirmed|told us|promised)\b/.exec(unit.normal);
        const name = reported && this.nameOrNull(reported[1]!, tokens, 0, unit, context);
        if (name) return name;
      }
      if (subject === 'i') return this.speakerOr(unit, 'I');
      if (subject === 'you') return this.vocative(unit) ?? 'you';
      return subject;
    }
    if (subject === 'everyone' || subject === 'everybody') return 'everyone';
    if (GROUP_OWNERS.has(subject)) return null;
    if (TEAM_WORDS.has(subject)) {
      const prev = tokens[si - 1];
      return prev && (prev.pos === 'NOUN' || prev.pos === 'PROPN' || prev.pos === 'ADJ') && !prev.stop ? `${prev.value} ${tokens[si]!.value}`.toLowerCase() : 'the team';
    }
    return this.nameOrNull(subject, tokens, si, unit, context) ?? undefined;
  }

  /** The word at `ti` as a person's name, or null when it does not look like one. */
  private nameOrNull(word: string, tokens: WordToken[], ti: number, unit: TextUnit, context: DocumentContext, object = false): string | null {
    const token = tokens[ti];
    if (!token || token.normal !== word) return null;
    if (NOT_A_NAME.has(word) || DATE_WORDS.has(word) || token.stop || word.length < 2 || /\d/.test(word)) return null;
    if (token.pos !== 'NOUN' && token.pos !== 'PROPN' && token.pos !== 'ADJ' && token.pos !== 'X') return null;
    if (!unit.uncased && !/^[A-Z]/.test(token.value)) return null;
    if (context.determinedNouns.has(token.lemma) || context.determinedNouns.has(word)) return null;
    const prev = object ? undefined : tokens[ti - 1];
    if (prev) {
      if (POSSESSIVES.has(prev.normal) || prev.pos === 'DET' || prev.pos === 'ADP' || prev.pos === 'NUM') return null;
      if ((prev.pos === 'NOUN' || prev.pos === 'PROPN') && !DATE_WORDS.has(prev.lemma) && prev.normal !== 'item' && prev.normal !== 'items') return null;
      if (prev.pos === 'ADJ' && !['too', 'very', 'so', 'really', 'quite', 'pretty', 'is', 'was', 'are', 'were', 'be'].includes(tokens[ti - 2]?.normal ?? '')) {
        if (!unit.uncased) return null;
        if (!['high', 'low', 'good', 'fine', 'done', 'ready', 'late', 'great', 'right', 'okay'].includes(prev.normal)) return null;
      }
    }
    return token.value.charAt(0).toUpperCase() + token.value.slice(1);
  }

  /** "Dana, can you …" / "… by Friday, Dana?": the person addressed. */
  private vocative(unit: TextUnit): string | null {
    const first = unit.tokens[0];
    const second = unit.tokens[1];
    if (first && second && (second.normal === ',' || ['can', 'could', 'would', 'will', 'please', 'you'].includes(second.normal))) {
      // Lowercase names get any tag ("mary" is an ADJ to the tagger); interjections are not names.
      const nameLike = first.pos === 'PROPN' || (unit.uncased && ['NOUN', 'ADJ', 'X'].includes(first.pos) && !INTERJECTION_LIKE.has(first.normal));
      if (nameLike && !NOT_A_NAME.has(first.normal) && !DATE_WORDS.has(first.normal) && !first.stop) {
        if (unit.uncased && second.normal !== ',' && !['can', 'could', 'would', 'you'].includes(second.normal)) return null;
        return first.value.charAt(0).toUpperCase() + first.value.slice(1);
      }
    }
    const tail = /, ([a-z]+) ?[?.!]?$/.exec(unit.normal);
    if (tail) {
      const t = unit.tokens.find((tok) => tok.normal === tail[1] && tok.pos === 'PROPN');
      if (t && !unit.uncased) return t.value;
    }
    return null;
  }

  private speakerOr(unit: TextUnit, fallback: string): string {
    return unit.speaker ?? fallback;
  }

  isDecision(unit: TextUnit): boolean {
    const { normal } = unit;
    if (/\?\s*$/.test(unit.text)) return false;
    const cue =
      /\b(?:decided|decide on|agreed|agree (?:on|to|that)|settled on|concluded|opted (?:for|to)|approved|signed off|decision|go with|going with|go ahead with|consensus|resolved to|the plan is to|chose|chosen|final call|will use|are using)\b/g;
    for (const m of normal.matchAll(cue)) {
      if (/^(?:will use|are using)$/.test(m[0]) && !/\bwe\b/.test(normal.slice(Math.max(0, m.index! - 12), m.index!))) continue;
      const window = normal.slice(Math.max(0, m.index! - 40), m.index!);
      if (/\b(?:not|n't|no|never|yet to|undecided|still need to|need to|have to|haven't|hasn't|pending|if|whether|should we|do we|did we|can we|could we|before we|until|once)\s*(?:\S+\s*){0,3}$/.test(window)) continue;
      if (/\b(?:to be decided|tbd|no decision|not decided|pending)\b/.test(normal)) continue;
      if (m[0] === 'decision' && /\b(?:make|need|take|reach|requires?)\b[^.]*$/.test(window)) continue;
      return true;
    }
    return false;
  }
}

function countWords(tokens: RawToken[], a: number, b: number): number {
  let n = 0;
  for (let i = a; i <= b; i++) if (tokens[i]!.isWord) n++;
  return n;
}

/** Can a clause start at token i: a subject pronoun or a name followed by a verb or modal. */
function clauseStartsAt(tokens: RawToken[], i: number): boolean {
  const t = tokens[i]!;
  const prev = tokens[i - 1];
  if (!prev) return false;
  if (CLAUSE_MARKERS.has(t.normal)) return true;
  let k = i + 1;
  while (tokens[k] && LEADING_ADVERBS.has(tokens[k]!.normal)) k++;
  const next = tokens[k];
  if (!next) return false;
  if (t.normal === 'let' && (next.normal === 'us' || next.normal === "'s")) return !COMPLEMENT_TAKERS.has(prev.normal) || prev.normal === 'so' || prev.normal === 'and';
  if (PERSON_PRONOUNS.has(t.normal)) {
    if (!(next.pos === 'AUX' || next.pos === 'VERB' || SUBJECT_MODALS.has(next.normal))) return false;
    if (COMPLEMENT_TAKERS.has(prev.normal) && !['and', 'but', 'so', 'or'].includes(prev.normal)) return false;
    if (prev.pos === 'ADP' || prev.pos === 'SCONJ' || prev.pos === 'DET' || prev.pos === 'AUX' || prev.pos === 'PART') return false;
    if (prev.pos === 'VERB' && !['done', 'finished', 'ready'].includes(prev.normal)) return false;
    return true;
  }
  if ((t.pos === 'NOUN' || t.pos === 'PROPN') && !t.stop && !DATE_WORDS.has(t.normal) && !NOT_A_NAME.has(t.normal)) {
    const modal = NAME_MODALS.has(next.normal) || (next.normal === 'has' && tokens[k + 1]?.normal === 'to');
    if (!modal) return false;
    if (POSSESSIVES.has(prev.normal) || prev.pos === 'DET' || prev.pos === 'ADP' || prev.pos === 'NUM') return false;
    if ((prev.pos === 'NOUN' || prev.pos === 'PROPN') && !DATE_WORDS.has(prev.normal)) return false;
    if (prev.pos === 'ADJ') return ['too', 'very', 'so', 'really', 'quite', 'pretty'].includes(tokens[i - 2]?.normal ?? '') || ['high', 'low', 'done', 'ready', 'late'].includes(prev.normal);
    return true;
  }
  return false;
}

/** Cuts an unpunctuated stretch of tokens [a, b] into clauses. */
function splitClauses(tokens: RawToken[], a: number, b: number): Array<[number, number]> {
  const cuts: number[] = [];
  let last = a;
  for (let i = a + 1; i <= b; i++) {
    if (!clauseStartsAt(tokens, i)) continue;
    // A conjunction before the new subject goes with the new clause.
    let cut = i;
    if (['and', 'but', 'so', 'or', 'then', 'also'].includes(tokens[i - 1]!.normal) && i - 1 > last) cut = i - 1;
    if (countWords(tokens, last, cut - 1) < 3) continue;
    cuts.push(cut);
    last = cut;
  }
  const pieces: Array<[number, number]> = [];
  let from = a;
  for (const cut of cuts) {
    pieces.push([from, cut - 1]);
    from = cut;
  }
  pieces.push([from, b]);
  // A tail of one or two words joins the clause before it.
  if (pieces.length > 1 && countWords(tokens, pieces[pieces.length - 1]![0], b) < 3) {
    pieces.pop();
    pieces[pieces.length - 1]![1] = b;
  }
  return pieces;
}

/** Splits anything longer than ~30 words into even chunks of about 25. */
function chunk(tokens: RawToken[], a: number, b: number): Array<[number, number]> {
  const words = countWords(tokens, a, b);
  if (words <= 30) return [[a, b]];
  const parts = Math.ceil(words / 25);
  const per = Math.ceil(words / parts);
  const out: Array<[number, number]> = [];
  let from = a;
  let seen = 0;
  for (let i = a; i <= b; i++) {
    if (tokens[i]!.isWord) seen++;
    if (seen === per && i < b) {
      out.push([from, i]);
      from = i + 1;
      seen = 0;
    }
  }
  if (from <= b) out.push([from, b]);
  return out;
}

function readable(text: string, uncased: boolean): string {
  let out = text.trim();
  if (uncased) out = out.replace(/\bi\b(?=$|[\s',.?!])/g, 'I');
  out = out.charAt(0).toUpperCase() + out.slice(1);
  if (!/[.!?。！？…]$/.test(out)) out += '.';
  return out;
}

const DEADLINE_WORDS = /(?:^| )(by|before|until|till|no later than|due|due by|due on|not later than)(?: the)?$/;

function findEnglishDates(
  tokens: WordToken[],
  normal: string,
  starts: number[],
  entities: Array<{ from: number; to: number; detail: { value: string; type: string } }>,
  a: number,
  b: number,
): DateMention[] {
  const spans: Array<{ from: number; to: number }> = [];
  for (const e of entities) {
    if (e.detail.type !== 'DATE' && e.detail.type !== 'TIME') continue;
    if (e.to < a || e.from > b) continue;
    const from = Math.max(e.from, a) - a;
    const to = Math.min(e.to, b) - a;
    const word = tokens[from]!.normal;
    if ((word === 'may' || word === 'march') && from === to && tokens[from - 1]?.pos !== 'ADP') continue;
    if (['now', 'then', 'once', 'second', 'minute', 'moment', 'morning', 'afternoon', 'evening', 'night'].includes(word) && from === to) continue;
    spans.push({ from: tokens[from]!.at, to: tokens[to]!.at + tokens[to]!.normal.length });
  }
  for (const m of normal.matchAll(EXTRA_DATES)) {
    const from = m.index!;
    if (from > 0 && /[a-z0-9]/.test(normal[from - 1]!)) continue;
    const to = from + m[0].length;
    if (to < normal.length && /[a-z0-9]/.test(normal[to]!)) continue;
    spans.push({ from, to });
  }
  // Keep the longest of overlapping spans.
  spans.sort((x, y) => x.from - y.from || y.to - x.to);
  const merged: Array<{ from: number; to: number }> = [];
  for (const s of spans) {
    const prev = merged[merged.length - 1];
    if (prev && s.from < prev.to) prev.to = Math.max(prev.to, s.to);
    else merged.push({ ...s });
  }
  return merged.map(({ from, to }) => {
    // Prepositions the regexes swallowed move to the deadline word.
    let text = normal.slice(from, to).replace(/^(?:in|by|on|until|before|since) (?=(?:march|may)\b)/, '');
    let start = to - text.length;
    const before = normal.slice(0, start).trimEnd();
    const prep = DEADLINE_WORDS.exec(before);
    const fi = indexAt(starts, start);
    const li = indexAt(starts, to - 1);
    // Use the words as said (with their case) for the mention.
    const said = tokens.slice(fi, li + 1).map((t) => t.value).join(' ').replace(/ '/g, "'");
    if (said.toLowerCase().replace(/\s+/g, ' ') === text.replace(/_/g, ' ')) text = said;
    const deadline = Boolean(prep);
    const due = prep ? `${prep[0].trim()} ${text}` : text;
    start = Math.max(0, prep ? start - prep[0].length : start);
    return { text, due, deadline, at: start };
  });
}

/** The due date of an action: the deadline after its cue, else any deadline, else the first date after it. */
function pickDue(dates: DateMention[], cueAt: number): string | null {
  const after = dates.filter((d) => d.at >= cueAt);
  return (after.find((d) => d.deadline) ?? dates.find((d) => d.deadline) ?? after[0] ?? dates[0])?.due ?? null;
}

// ---------------------------------------------------------------------------------------------
// Japanese

let kuromojiTokenizer: Promise<Tokenizer<IpadicFeatures>> | undefined;
function japaneseTokenizer(): Promise<Tokenizer<IpadicFeatures>> {
  kuromojiTokenizer ??= (async () => {
    const { default: kuromoji } = await import('kuromoji');
    const dicPath = path.join(path.dirname(require.resolve('kuromoji/package.json')), 'dict');
    return new Promise<Tokenizer<IpadicFeatures>>((resolve, reject) => {
      kuromoji.builder({ dicPath }).build((err, tokenizer) => (err ? reject(err) : resolve(tokenizer)));
    });
  })();
  kuromojiTokenizer.catch(() => {
    kuromojiTokenizer = undefined;
  });
  return kuromojiTokenizer;
}

const JA_STOP = new Set(
  'する いる ある なる れる られる できる 思う 言う いう こと もの よう ため それ これ あれ どれ そこ ここ 皆さん みなさん ところ 方 感じ 時 今日 本日 以上 お疲れ様 様 さん よろしく お願い 何 なに 方'.split(' '),
);
const JA_SENTENCE_END = /[。！？!?．]/;
const JA_FINAL_AUX = new Set(['ます', 'です', 'た', 'だ', 'う', 'ん']);
const JA_DATE =
  /(?:今日|本日|明日|あした|明後日|あさって|今週末|来週末|今週|来週|再来週|今月末|来月末|今月|来月|月末|週末|年内|年度末|今期中|午前中|(?:\d{1,4}年)?\d{1,2}月\d{1,2}日|\d{1,2}月(?:中|末)?|\d{1,2}日)(?:の?(?:[月火水木金土日]曜日?))?(?:の?(?:朝|昼|夕方|夜|午前|午後)(?:\d{1,2}時(?:半|\d{1,2}分)?)?)?|(?:(?:今週|来週|再来週)の?)?[月火水木金土日]曜日?(?:の?(?:朝|昼|夕方|夜|午前|午後))?|(?:午前|午後)?\d{1,2}時(?:半|\d{1,2}分)?/g;

class JapaneseRules implements LanguageRules {
  readonly emptyOverview = '発話はありませんでした。';

  topicsLead(topics: string[]): string {
    return topics.length ? `主な話題：${topics.join('、')}。` : '';
  }

  async units(document: TranscriptDocument, signal: AbortSignal): Promise<TextUnit[]> {
    const tokenizer = await japaneseTokenizer();
    const units: TextUnit[] = [];
    for (const [n, segment] of document.segments.entries()) {
      if (n % 50 === 0) throwIfAborted(signal);
      const clean = stripMarkup(segment.text);
      if (!clean) continue;
      const tokens = tokenizer.tokenize(clean);
      const bounds: Array<[number, number]> = [];
      let from = 0;
      for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i]!;
        const next = tokens[i + 1];
        let end = JA_SENTENCE_END.test(t.surface_form);
        if (!end && next && !JA_SENTENCE_END.test(next.surface_form)) {
          // Unpunctuated: a sentence ends after a final auxiliary (ます/です/た…) or ください not followed by a particle.
          const final =
            (t.pos === '助動詞' && JA_FINAL_AUX.has(t.basic_form) && t.conjugated_form === '基本形') ||
            (t.basic_form === 'くださる' && t.conjugated_form.startsWith('命令')) ||
            (t.pos === '助詞' && t.pos_detail_1 === '終助詞');
          end = final && next.pos !== '助詞' && next.pos !== '助動詞' && next.pos_detail_1 !== '非自立' && next.pos !== '記号';
        }
        if (end || i === tokens.length - 1) {
          bounds.push([from, i]);
          from = i + 1;
        }
      }
      for (const [a, b] of bounds) {
        for (const [ca, cb] of chunkJapanese(tokens, a, b)) {
          const unit = this.makeUnit(segment, clean, tokens, ca, cb, units.length);
          if (unit) units.push(unit);
        }
      }
    }
    return units;
  }

  private makeUnit(segment: TranscriptSegment, clean: string, all: IpadicFeatures[], a: number, b: number, index: number): TextUnit | null {
    const slice = all.slice(a, b + 1);
    while (slice.length && (slice[0]!.pos === '記号' || slice[0]!.pos === '接続詞' || slice[0]!.pos === 'フィラー')) slice.shift();
    if (!slice.some((t) => t.pos !== '記号')) return null;
    const fromChar = slice[0]!.word_position - 1;
    const last = slice[slice.length - 1]!;
    const toChar = last.word_position - 1 + last.surface_form.length;
    const text = clean.slice(fromChar, toChar).trim();
    const normal = text.normalize('NFKC');
    const terms: string[] = [];
    const phrases: string[] = [];
    let run: string[] = [];
    const flush = () => {
      if (run.length >= 2) phrases.push(run.join(''));
      run = [];
    };
    for (const t of slice) {
      const base = t.basic_form === '*' ? t.surface_form : t.basic_form;
      const noun = t.pos === '名詞' && !['非自立', '代名詞', '数', '副詞可能', '接尾'].includes(t.pos_detail_1);
      const content = noun || ((t.pos === '動詞' || t.pos === '形容詞') && t.pos_detail_1 === '自立');
      if (content && !JA_STOP.has(base) && base.length > 0 && !/^[\p{P}\s]+$/u.test(base)) terms.push(base);
      if (noun && !JA_STOP.has(base)) {
        phrases.push(base);
        run.push(t.surface_form);
      } else if (t.pos === '名詞' && t.pos_detail_1 === '接尾' && run.length > 0) {
        run.push(t.surface_form);
      } else flush();
    }
    flush();
    const dates: DateMention[] = [];
    for (const m of normal.matchAll(JA_DATE)) {
      const rest = normal.slice(m.index! + m[0].length);
      const suffix = /^(?:までに|まで|中に|迄に)/.exec(rest)?.[0] ?? '';
      dates.push({ text: m[0], due: m[0] + suffix, deadline: suffix.length > 0, at: m.index! });
    }
    return {
      index,
      segment_id: segment.id,
      start: segment.start,
      end: segment.end,
      speaker: segment.speaker,
      text,
      display: JA_SENTENCE_END.test(text.slice(-1)) ? text : `${text}。`,
      normal,
      terms,
      phrases,
      dates,
      tokens: [],
      uncased: false,
    };
  }

  actionItem(unit: TextUnit): Found | null {
    const { normal } = unit;
    const requestOrPromise = /(?:て|で)(?:ください|下さい|くれますか|もらえますか|いただけますか)|お願い(?:します|いたします|できますか)|(?:て|で)おきます|(?:て|で)おく|しましょう|ましょう|担当(?:します|してください|は|で)|対応(?:します|をお願い)|必要があります|なければ(?:なりません|いけません)|なくては|ないといけません|やります|宿題|アクションアイテム|TODO/i;
    const byDate = /までに|迄に/;
    const past = /(?:ました|でした|だった|終わった|済み)[。！？]?$/;
    // Greetings ("よろしくお願いします") and choices ("B案で行きましょう", a decision) are not tasks.
    if (/^(?:では|それでは|じゃあ)?[、,]?(?:どうぞ)?よろしくお願い(?:します|いたします|致します)[。！!]?$/.test(normal)) return null;
    if (/で(?:行|い)きましょう/.test(normal) && !/までに|ください/.test(normal)) return null;
    const strong = requestOrPromise.exec(normal);
    const commit = /(?:さん|くん|君|様|氏|部長|課長|私|僕|俺|わたし|自分)(?:が|は|の方で|から)[^。]*?(?:します|ます)[。！？]?$/.test(normal) && !past.test(normal);
    if (!strong && !commit && !(byDate.test(normal) && !past.test(normal))) return null;
    if (!strong && past.test(normal)) return null;
    if (/(?:ません|ないです|ありません)[。]?$/.test(normal) && !/なければ|ないといけ/.test(normal)) return null;
    const cueAt = strong?.index ?? 0;
    return { owner: this.owner(normal), due: pickDue(unit.dates, Math.min(cueAt, unit.dates.find((d) => d.deadline)?.at ?? cueAt)) };
  }

  private owner(normal: string): string | null {
    const named =
      /([\p{Script=Han}\p{Script=Katakana}A-Za-zー]{1,8}?)(さん|くん|君|様|氏|部長|課長|さま)(?:が|は|には|に|から|の方で)/u.exec(normal) ??
      /^([\p{Script=Han}\p{Script=Katakana}A-Za-zー]{1,8}?)(さん|くん|君|様|氏|部長|課長|さま)[、,]/u.exec(normal);
    const self = /(私|僕|俺|わたし|自分)(?:が|は|の方で|から)/.exec(normal);
    const assigned = /担当は([\p{Script=Han}\p{Script=Katakana}A-Za-zー]{1,8}?(?:さん|くん|君|様|氏)?)(?:です|で|に)/u.exec(normal);
    const candidates = [named && { at: named.index, who: named[1]! + named[2]! }, self && { at: self.index, who: self[1]! }, assigned && { at: assigned.index, who: assigned[1]! }]
      .filter((c): c is { at: number; who: string } => Boolean(c))
      .sort((x, y) => x.at - y.at);
    return candidates[0]?.who ?? null;
  }

  isDecision(unit: TextUnit): boolean {
    const { normal } = unit;
    if (/(?:決まっていない|決まっていません|未定|決まらな|まだ決め|決めていません|決めていない|検討中|か[。？?]?$)/.test(normal)) return false;
    return /決定|決まりました|決まった|決めました|決めた|合意|承認|ことにしました|ことになりました|ことにします|方針|で(?:行|い)きます|で(?:行|い)きましょう|採用/.test(normal);
  }
}

function chunkJapanese(tokens: IpadicFeatures[], a: number, b: number): Array<[number, number]> {
  let chars = 0;
  for (let i = a; i <= b; i++) chars += tokens[i]!.surface_form.length;
  if (chars <= 80) return [[a, b]];
  // Prefer cutting at a comma or a conjunctive particle near every ~60 characters.
  const out: Array<[number, number]> = [];
  let from = a;
  let run = 0;
  for (let i = a; i <= b; i++) {
    run += tokens[i]!.surface_form.length;
    const t = tokens[i]!;
    const goodCut = t.surface_form === '、' || (t.pos === '助詞' && t.pos_detail_1 === '接続助詞');
    if (i < b && ((run >= 40 && goodCut) || run >= 80)) {
      out.push([from, i]);
      from = i + 1;
      run = 0;
    }
  }
  if (from <= b) out.push([from, b]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The engine

export interface ExtractiveSummaryOptions {
  /** Units quoted in the overview after its topics line (default 2). */
  overviewSentences?: number;
  /** Most key points (default: about one per six units, 3 to 8). */
  maxKeyPoints?: number;
  /** Topics named in the overview's first line (default 3). */
  topics?: number;
}

export class ExtractiveSummaryEngine implements SummaryEngine {
  readonly name = 'textrank';
  readonly languages: readonly string[] = ['en', 'ja'];
  private readonly rules: Record<string, LanguageRules> = { en: new EnglishRules(), ja: new JapaneseRules() };

  constructor(private readonly options: ExtractiveSummaryOptions = {}) {}

  /** Loads the language models ahead of the first summary (they load lazily otherwise). */
  async warmUp(languages: readonly string[] = this.languages): Promise<void> {
    if (languages.includes('en')) await wink();
    if (languages.includes('ja')) await japaneseTokenizer();
  }

  /** The sentence units of a transcript, as the summary sees them. */
  async units(document: TranscriptDocument, language: string, signal: AbortSignal = new AbortController().signal): Promise<TextUnit[]> {
    return this.rulesFor(language).units(document, signal);
  }

  async summarize(input: AnalysisInput): Promise<SummaryResult> {
    const { document, signal } = input;
    const rules = this.rulesFor(input.language);
    throwIfAborted(signal);
    const units = await rules.units(document, signal);
    throwIfAborted(signal);
    const details = this.summarizeUnits(units, rules);
    throwIfAborted(signal);
    return { summarizedText: formatSummaryText(details), details };
  }

  private rulesFor(language: string): LanguageRules {
    const base = language.toLowerCase().split(/[-_]/)[0] ?? '';
    const rules = this.rules[base];
    if (!rules) throw new Error(`The "${this.name}" summary engine handles ${this.languages.join(', ')}, not "${language}".`);
    return rules;
  }

  private summarizeUnits(units: TextUnit[], rules: LanguageRules): SummaryDetails {
    if (units.length === 0) return { overview: rules.emptyOverview, key_points: [], action_items: [], decisions: [], dates: [] };
    const anchor = (u: TextUnit, text = u.display): SummaryItem => ({ segment_id: u.segment_id, start: u.start, end: u.end, text });
    const context: DocumentContext = { determinedNouns: determinedNouns(units) };

    const actions = new Map<number, ActionItem>();
    const decisions = new Map<number, SummaryItem>();
    for (const u of units) {
      const found = rules.actionItem(u, context);
      if (found) actions.set(u.index, { ...anchor(u), owner: found.owner, due: found.due });
      if (rules.isDecision(u)) decisions.set(u.index, anchor(u));
    }
    const dates: SummaryItem[] = [];
    const seenDates = new Set<string>();
    for (const u of units) {
      for (const d of u.dates) {
        const key = `${u.segment_id}|${d.text.toLowerCase()}`;
        if (seenDates.has(key)) continue;
        seenDates.add(key);
        dates.push(anchor(u, d.text));
      }
    }

    // Rank. Units with too few content words are not quotable on their own.
    const scores = textRank(units.map((u) => u.terms));
    const ranked = units
      .map((u, i) => ({ u, score: scores[i]! }))
      .filter(({ u }) => new Set(u.terms).size >= 3)
      .sort((x, y) => y.score - x.score || x.u.index - y.u.index);
    const picked: TextUnit[] = [];
    const distinct = (u: TextUnit) => picked.every((p) => jaccard(p.terms, u.terms) < 0.6);
    // A key point is better connected than the average unit; a short talk yields fewer, not filler.
    const meanScore = scores.reduce((sum, x) => sum + x, 0) / scores.length;

    const overviewCount = this.options.overviewSentences ?? (units.length < 6 ? 1 : 2);
    const overviewUnits: TextUnit[] = [];
    for (const { u } of ranked) {
      if (overviewUnits.length >= overviewCount) break;
      if (actions.has(u.index) || !distinct(u)) continue;
      overviewUnits.push(u);
      picked.push(u);
    }
    const keyCount = this.options.maxKeyPoints ?? Math.min(8, Math.max(3, Math.round(units.length / 6)));
    const keyUnits: TextUnit[] = [];
    for (const { u } of ranked) {
      if (keyUnits.length >= keyCount) break;
      if (picked.includes(u) || actions.has(u.index) || decisions.has(u.index) || !distinct(u) || scores[u.index]! < meanScore) continue;
      if (MEETING_FLOW.test(u.normal)) continue;
      keyUnits.push(u);
      picked.push(u);
    }
    const byOrder = (a: TextUnit, b: TextUnit) => a.index - b.index;
    overviewUnits.sort(byOrder);
    keyUnits.sort(byOrder);

    const topics = topPhrases(units, scores, this.options.topics ?? 3);
    const lead = rules.topicsLead(topics);
    const quoted = overviewUnits.map((u) => u.display).join(' ');
    const overview = [lead, quoted].filter(Boolean).join(' ') || rules.emptyOverview;

    return {
      overview,
      key_points: keyUnits.map((u) => anchor(u)),
      action_items: [...actions.values()],
      decisions: [...decisions.values()],
      dates,
    };
  }
}

/** "Let's turn to X", "next, X": steering the meeting rather than saying something. */
const MEETING_FLOW = /^(?:let(?:'s| us) (?:turn|move|get started|start|begin|talk|go|look|switch)|next ,|moving on|それでは|では次|次に)/;

function determinedNouns(units: TextUnit[]): Set<string> {
  const out = new Set<string>();
  for (const u of units) {
    u.tokens.forEach((t, i) => {
      const prev = u.tokens[i - 1];
      if (prev && POSSESSIVES.has(prev.normal) && (t.pos === 'NOUN' || t.pos === 'PROPN')) out.add(t.lemma);
    });
  }
  return out;
}

/** The noun phrases that weigh most: frequency weighted by the rank of the units they occur in. */
function topPhrases(units: TextUnit[], scores: number[], count: number): string[] {
  const max = Math.max(...scores, 1e-9);
  const weight = new Map<string, number>();
  const seenIn = new Map<string, Set<number>>();
  units.forEach((u, i) => {
    for (const p of new Set(u.phrases)) {
      const bonus = p.includes(' ') || p.length >= 4 ? 1.2 : 1;
      weight.set(p, (weight.get(p) ?? 0) + (0.5 + scores[i]! / max) * bonus);
      (seenIn.get(p) ?? seenIn.set(p, new Set()).get(p)!).add(u.index);
    }
  });
  const candidates = [...weight.entries()]
    .filter(([p]) => (seenIn.get(p)?.size ?? 0) >= 2)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const chosen: string[] = [];
  const overlap = (a: string, b: string) => {
    const aw = a.split(' ');
    return b.split(' ').some((w) => aw.includes(w)) || a.includes(b) || b.includes(a);
  };
  for (const [p, w] of candidates) {
    const clashes = chosen.filter((c) => overlap(c, p));
    if (clashes.length === 0) {
      if (chosen.length < count) chosen.push(p);
      continue;
    }
    // A compound covers its parts: it replaces them when it weighs nearly as much as the first of them.
    const first = clashes[0]!;
    if (p.length > first.length && clashes.every((c) => p.includes(c) || c.split(' ').every((x) => p.split(' ').includes(x))) && w >= 0.3 * (weight.get(first) ?? 0)) {
      const at = chosen.indexOf(first);
      chosen[at] = p;
      for (const c of clashes.slice(1)) chosen.splice(chosen.indexOf(c), 1);
    }
  }
  return chosen;
}

// ---------------------------------------------------------------------------------------------
// Text

/**
 * The readable summary: overview paragraph, then "Key points:", "Action items:" and "Decisions:" bullets,
 * each bullet starting with the time in the audio it comes from. Shared with the LLM summary engine.
 */
export function formatSummaryText(details: SummaryDetails): string {
  const at = (item: SummaryItem) => `[${formatTime(item.start)}]`;
  const parts: string[] = [details.overview.trim()];
  if (details.key_points.length) parts.push(['Key points:', ...details.key_points.map((k) => `- ${at(k)} ${k.text}`)].join('\n'));
  const actionLines = details.action_items.map((a) => {
    const meta = [a.owner ? `owner: ${a.owner}` : null, a.due ? `due: ${a.due}` : null].filter(Boolean).join(', ');
    return `- ${at(a)} ${a.text}${meta ? ` (${meta})` : ''}`;
  });
  parts.push(['Action items:', ...(actionLines.length ? actionLines : ['- None identified.'])].join('\n'));
  const decisionLines = details.decisions.map((d) => `- ${at(d)} ${d.text}`);
  parts.push(['Decisions:', ...(decisionLines.length ? decisionLines : ['- None identified.'])].join('\n'));
  return parts.join('\n\n') + '\n';
}
