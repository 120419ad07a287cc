// Extractive meeting summary without a language model: TextRank over sentence units for the overview
// and key points, and rules for action items (with owner and due date), decisions and dates.
//
// Units are sentences where the transcript is punctuated. The embedded speech engine gives lowercase
// text without punctuation, one voice-activity utterance per segment: there a segment is cut into
// clauses at likely clause starts ("... too high alice will send ...", "okay ..."), and anything
// still long into chunks of about 25 words. Every unit keeps its segment id and times, refined to the
// words it covers when the segment's words line up with its text.
//
// The language rules live beside this file: english-rules.ts (wink-nlp) and japanese-rules.ts
// (kuromoji); dates.ts finds dates and deadlines, textrank.ts ranks units, summary-text.ts writes the text.
import type { ActionItem, SummaryDetails, SummaryItem } from '../../../src-shared/analysis.js';
import { transcriptSpeakerNames } from '../../../src-shared/speaker-names.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import type { AnalysisInput, SummaryEngine, SummaryResult } from '../../domain/analysis-engines.js';
import { EngineError } from '../../domain/engine-error.js';
import { EnglishRules, POSSESSIVES, wink } from './english-rules.js';
import { JapaneseRules, japaneseTokenizer } from './japanese-rules.js';
import { formatSummaryText } from './summary-text.js';
import { throwIfAborted, type DocumentContext, type LanguageRules, type TextUnit } from './text-units.js';
import { jaccard, textRank } from './textrank.js';

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
  async units(
    document: TranscriptDocument,
    language: string,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<TextUnit[]> {
    return namedSpeakers(document, await this.rulesFor(language).units(document, signal));
  }

  async summarize(input: AnalysisInput): Promise<SummaryResult> {
    const { document, signal } = input;
    const rules = this.rulesFor(input.language);
    throwIfAborted(signal);
    const units = namedSpeakers(document, await rules.units(document, signal));
    throwIfAborted(signal);
    const details = this.summarizeUnits(units, rules);
    throwIfAborted(signal);
    return { summarizedText: formatSummaryText(details, input.language), details };
  }

  private rulesFor(language: string): LanguageRules {
    const base = language.toLowerCase().split(/[-_]/)[0] ?? '';
    const rules = this.rules[base];
    if (!rules) {
      throw new EngineError(
        'unsupported',
        `The "${this.name}" summary engine handles ${this.languages.join(', ')}, not "${language}".`,
        {
          field: 'language',
        },
      );
    }
    return rules;
  }

  private summarizeUnits(units: TextUnit[], rules: LanguageRules): SummaryDetails {
    if (units.length === 0)
      return { overview: rules.emptyOverview, key_points: [], action_items: [], decisions: [], dates: [] };
    const anchor = (u: TextUnit, text = u.display): SummaryItem => ({
      segment_id: u.segment_id,
      start: u.start,
      end: u.end,
      text,
    });
    const context: DocumentContext = { determinedNouns: determinedNouns(units), units };

    const actions = new Map<number, ActionItem>();
    const decisions = new Map<number, SummaryItem>();
    for (const u of units) {
      const found = rules.actionItem(u, context);
      const decided = rules.isDecision(u);
      if (decided) decisions.set(u.index, anchor(u));
      // "Let's move the meeting to Thursday", "we decided to keep the server until March": what the group
      // settled, listed once as a decision. A decision that gives a person a task is both.
      if (found && !(decided && rules.isGroupOwner(found.owner)))
        actions.set(u.index, { ...anchor(u), owner: found.owner, due: found.due });
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

    // Japanese sentences follow one another without a space.
    const gap = rules === this.rules.ja ? '' : ' ';
    // A recording of a sentence or two: the lists below already say its tasks and decisions, so the
    // overview quotes the rest of what was said, once, and there are no key points to repeat it again.
    // Only when everything said is a task or a decision does the overview restate them.
    if (units.length <= SHORT_RECORDING_UNITS) {
      const rest = units.filter((u) => !actions.has(u.index) && !decisions.has(u.index) && u.display.trim() !== '');
      if (rest.length > 0)
        return {
          overview: rest.map((u) => u.display).join(gap),
          key_points: [],
          action_items: [...actions.values()],
          decisions: [...decisions.values()],
          dates,
        };
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
      if (
        picked.includes(u) ||
        actions.has(u.index) ||
        decisions.has(u.index) ||
        !distinct(u) ||
        scores[u.index]! < meanScore
      )
        continue;
      if (MEETING_FLOW.test(u.normal)) continue;
      keyUnits.push(u);
      picked.push(u);
    }
    const byOrder = (a: TextUnit, b: TextUnit) => a.index - b.index;
    overviewUnits.sort(byOrder);
    keyUnits.sort(byOrder);

    const topics = topPhrases(units, scores, this.options.topics ?? 3);
    const lead = rules.topicsLead(topics);
    // What was decided and who does what come first (issue 27 item 10); the best-connected sentences
    // follow only when the meeting decided and assigned nothing, or to fill a short overview.
    const decided = rules.decidedLead([...decisions.values()].slice(0, OVERVIEW_DECISIONS).map((d) => d.text));
    const todo = rules.actionsLead(
      [...actions.values()].slice(0, OVERVIEW_ACTIONS).map((a) => ({ owner: a.owner, text: a.text })),
    );
    const quoted = (decided || todo ? overviewUnits.slice(0, 1) : overviewUnits).map((u) => u.display).join(gap);
    const overview =
      [lead, decided, todo, decided && todo ? '' : quoted].filter(Boolean).join(gap) ||
      shortTalk(units, scores, overviewCount, gap) ||
      rules.emptyOverview;

    return {
      overview,
      key_points: keyUnits.map((u) => anchor(u)),
      action_items: [...actions.values()],
      decisions: [...decisions.values()],
      dates,
    };
  }
}

/**
 * Units speak with the speaker's name where the transcript has one (a name the team gave, or a voice the
 * library recognized), so an owner who said "I will…" is named, not "SPEAKER_1".
 */
function namedSpeakers(document: TranscriptDocument, units: TextUnit[]): TextUnit[] {
  const names = transcriptSpeakerNames(document);
  return units.map((unit) => {
    const name = unit.speaker ? names[unit.speaker] : undefined;
    return name ? { ...unit, speakerName: name } : unit;
  });
}

/**
 * A short recording ("he might even have been made the amiable himself") has no unit with enough content
 * words to rank, yet something was said: the overview quotes it, the best-connected units first chosen and
 * then in the order spoken. Empty only when no unit has any text.
 */
function shortTalk(units: TextUnit[], scores: number[], count: number, gap: string): string {
  return units
    .map((u, i) => ({ u, score: scores[i]! }))
    .filter(({ u }) => u.display.trim() !== '')
    .sort((x, y) => y.score - x.score || x.u.index - y.u.index)
    .slice(0, count)
    .sort((x, y) => x.u.index - y.u.index)
    .map(({ u }) => u.display)
    .join(gap);
}

/**
 * At most this many units make a short recording, whose overview quotes what its lists do not say
 * (`summarizeUnits`). Three sentences already read as a meeting: its overview leads with what was decided
 * and who does what (issue 27 item 10).
 */
const SHORT_RECORDING_UNITS = 2;

/** At most this many decisions and action items are restated in the overview; the lists hold them all. */
const OVERVIEW_DECISIONS = 3;
const OVERVIEW_ACTIONS = 4;

/** "Let's turn to X", "next, X": steering the meeting rather than saying something. */
const MEETING_FLOW =
  /^(?:let(?:'s| us) (?:turn|move|get started|start|begin|talk|go|look|switch)|next ,|moving on|それでは|では次|次に)/;

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
    if (
      p.length > first.length &&
      clashes.every((c) => p.includes(c) || c.split(' ').every((x) => p.split(' ').includes(x))) &&
      w >= 0.3 * (weight.get(first) ?? 0)
    ) {
      const at = chosen.indexOf(first);
      chosen[at] = p;
      for (const c of clashes.slice(1)) chosen.splice(chosen.indexOf(c), 1);
    }
  }
  return chosen;
}
