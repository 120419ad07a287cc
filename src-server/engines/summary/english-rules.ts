// The English rules of the extractive summary: sentence and clause units from wink-nlp (POS, lemmas,
// DATE/TIME entities), action items with their owner and due date, and decisions. The model loads
// from its npm package on first use.
import type { ItsFunction, WinkMethods } from 'wink-nlp';
import type { TranscriptDocument, TranscriptSegment } from '../../../src-shared/transcript-document.js';
import { DATE_WORDS, findEnglishDates, pickDue } from './dates.js';
import { textNamesOwner } from './summary-text.js';
import {
  indexAt,
  spanTimes,
  stripMarkup,
  throwIfAborted,
  withoutStop,
  type DocumentContext,
  type Found,
  type LanguageRules,
  type TextUnit,
  type WordToken,
} from './text-units.js';

const PERSON_PRONOUNS = new Set(['i', 'we', 'you', 'he', 'she', 'they']);
const NOT_A_NAME = new Set([
  'it',
  'this',
  'that',
  'there',
  'which',
  'what',
  'who',
  'these',
  'those',
  'one',
  'everything',
  'nothing',
  'something',
  'anything',
  'thing',
  'things',
  'lot',
  'way',
  'time',
  'people',
  'yes',
  'no',
  'okay',
  'ok',
  'yeah',
  'right',
  'well',
  'so',
  'now',
  'then',
  'also',
  'just',
  'really',
  'thanks',
  'thank',
  'please',
  'here',
  'where',
  'how',
  'why',
  'when',
  'all',
  'both',
  'each',
  'some',
  'any',
  'many',
  'much',
  'more',
  'most',
]);
const INTERJECTION_LIKE = new Set([
  'great',
  'good',
  'fine',
  'nice',
  'cool',
  'right',
  'sure',
  'perfect',
  'awesome',
  'excellent',
  'sorry',
  'thanks',
  'wow',
  'hey',
  'guys',
  'folks',
  'team',
  'everyone',
]);
const GROUP_OWNERS = new Set(['everyone', 'everybody', 'someone', 'somebody', 'anyone', 'anybody']);
const TEAM_WORDS = new Set(['team', 'group', 'department', 'squad']);
export const POSSESSIVES = new Set([
  'my',
  'our',
  'your',
  'their',
  'his',
  'her',
  'its',
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'some',
  'every',
  'each',
  'any',
  'no',
]);

/** Words that carry no topic in meeting talk, on top of wink's stop words. */
const EN_EXTRA_STOP = new Set(
  (
    'be have do get go say think know want let okay ok yeah yes um uh hmm like gonna wanna gotta really just well right kind sort ' +
    'mean see guess good great nice sure thing things lot way thank thanks everyone everybody anyone someone something anything ' +
    'today morning time question probably maybe actually basically also still even much many little bit come take put look need ' +
    'will would could should can may might must also already yet again here there now then hello hi bye alright'
  ).split(' '),
);
const EN_FILLERS = new Set([
  'and',
  'so',
  'but',
  'okay',
  'ok',
  'um',
  'uh',
  'well',
  'alright',
  'anyway',
  'like',
  'hmm',
  'oh',
  'then',
  'or',
]);
const CLAUSE_MARKERS = new Set(['okay', 'ok', 'alright', 'anyway']);
const COMPLEMENT_TAKERS = new Set([
  'think',
  'thought',
  'guess',
  'know',
  'knew',
  'say',
  'said',
  'says',
  'mean',
  'hope',
  'believe',
  'feel',
  'suppose',
  'sure',
  'if',
  'when',
  'because',
  'that',
  'than',
  'as',
  'what',
  'where',
  'how',
  'why',
  'which',
  'who',
  'whether',
  'until',
  'unless',
  'before',
  'after',
  'since',
  'while',
  'thank',
  'let',
  'make',
  'tell',
  'told',
  'ask',
  'asked',
  'see',
  'saw',
  'heard',
  'hear',
  'remember',
  'realize',
  'realized',
  'notice',
  'noticed',
  'and',
  'or',
  'but',
  'so',
]);
const SUBJECT_MODALS = new Set([
  'will',
  'shall',
  'should',
  'must',
  'needs',
  'need',
  'has',
  'can',
  'could',
  'would',
  'is',
  'are',
  'am',
  'was',
  'were',
  'might',
  'may',
]);
const NAME_MODALS = new Set(['will', 'shall', 'should', 'must', 'needs', 'need']);
const LEADING_ADVERBS = new Set([
  'also',
  'then',
  'just',
  'really',
  'probably',
  'definitely',
  'still',
  'all',
  'actually',
  'personally',
  'both',
  'first',
]);

type WinkLoad = { nlp: WinkMethods };
let winkLoaded: WinkLoad | undefined;
export async function wink(): Promise<WinkLoad> {
  if (!winkLoaded) {
    const [{ default: winkNLP }, { default: model }] = await Promise.all([
      import('wink-nlp'),
      import('wink-eng-lite-web-model'),
    ]);
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

export class EnglishRules implements LanguageRules {
  readonly emptyOverview = 'Nothing was said in this recording.';

  topicsLead(topics: string[]): string {
    return topics.length ? `Main topics: ${topics.join(', ')}.` : '';
  }

  decidedLead(decisions: string[]): string {
    return decisions.length ? `Decided: ${decisions.map(withoutStop).join('; ')}.` : '';
  }

  actionsLead(actions: { owner: string | null; text: string }[]): string {
    if (actions.length === 0) return '';
    const item = (a: { owner: string | null; text: string }) =>
      a.owner && !textNamesOwner(a.text, a.owner) ? `${a.owner}: ${withoutStop(a.text)}` : withoutStop(a.text);
    return `To do: ${actions.map(item).join('; ')}.`;
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
      const values = doc.tokens().out(its.value);
      const normals = doc.tokens().out(its.normal);
      // Typed with an addons parameter that ItsFunction does not declare.
      const lemmas = doc.tokens().out(its.lemma as unknown as ItsFunction<string>);
      const poses = doc.tokens().out(its.pos);
      const stops = doc.tokens().out(its.stopWordFlag) as unknown as boolean[];
      const types = doc.tokens().out(its.type);
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
      const sentenceSpans = punctuated
        ? (doc.sentences().out(its.span) as unknown as number[][])
        : [[0, tokens.length - 1]];
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
        const word =
          t.normal.endsWith('s') && lemma.length < t.normal.length && t.normal.startsWith(lemma.slice(0, -1))
            ? lemma
            : t.normal;
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
      if (verb === 'not' || verb === 'never' || verb === "n't") continue;
      if (
        verb === 'be' &&
        !/ing$/.test(after) &&
        !['responsible', 'in', 'the', 'handling', 'sending', 'doing', 'working', 'taking', 'looking'].includes(after)
      )
        continue;
      if (m[2] === 'should' && verb === 'have') continue; // "should have": regret, not a task
      if (verb === 'go' && after === 'with') continue; // "we will go with X": a decision
      const si = tokenAt(m.index);
      const before = tokens.slice(Math.max(0, si - 3), si).map((t) => t.normal);
      if (before.includes('if') || before.includes('whether') || before.includes('maybe')) continue;
      const owner = this.ownerOf(tokens, si, subject, unit, context);
      if (owner === undefined) continue;
      take(m.index, owner);
    }
    // Offers: "I can send the list today" (not "I can see", "I can't").
    const offer =
      /(?:^|[.,;] |\b(?:so|and|then|yes|sure|okay|ok) )i can (?:(?:also|just|quickly|easily) )*([a-z]+)/.exec(normal);
    if (offer && !/\?\s*$/.test(unit.text) && !OFFER_NOT.has(offer[1]!)) take(offer.index, this.speakerOr(unit, 'I'));
    // Requests: "can you send", "could you please draft".
    for (const m of normal.matchAll(/\b(?:can|could|would|will) you (?:(?:please|also|all|just) )*([a-z]+)/g)) {
      if (/^(?:hear|see|believe|imagine|guess|think|feel|understand|repeat|say|speak|be|tell|remember|do)$/.test(m[1]!))
        continue;
      take(m.index, this.addressed(unit, context));
    }
    const somebody =
      /\b(?:can|could|would|will) (?:somebody|someone|anybody|anyone) (?:please )?(?!hear|see|tell|remind|explain)[a-z]+/.exec(
        normal,
      );
    if (somebody) take(somebody.index, null);
    const please = /\bplease (?!note|welcome|excuse)/.exec(normal);
    if (please) take(please.index, this.vocative(unit));
    // "let's get started", "let's move on": running the meeting, not a task.
    const lets =
      /\blet(?:'s| us|s)\b(?! (?:see|say|think|just say|be honest|hope|get started|start|begin|move on|turn to|go (?:on|over|through|back|to|with|ahead with)|talk about|look at|discuss|wrap up|get going|continue|recap|jump|dive|take a look|take a (?:quick |short |coffee |little )?break|switch to|come back|quickly go))/.exec(
        normal,
      );
    if (lets) take(lets.index, 'we');
    const letMe = /\blet me (?!see|think|know|check if|guess|ask)/.exec(normal);
    if (letMe) take(letMe.index, this.speakerOr(unit, 'I'));
    // Explicit markers.
    const assigned = /\b(?:assign(?:ed|s)?|hand(?:ed)?(?: over)?|delegate(?:d)?)(?: [a-z]+){0,4}? to ([a-z]+)\b/.exec(
      normal,
    );
    if (assigned) {
      const ti = tokenAt(assigned.index + assigned[0].length - assigned[1]!.length);
      const who =
        PERSON_PRONOUNS.has(assigned[1]!) || assigned[1] === 'me' || assigned[1] === 'us'
          ? assigned[1]!
          : this.nameOrNull(assigned[1]!, tokens, ti, unit, context, true);
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
    const explicit =
      /\b(?:action items?|to-?dos?|make sure|follow(?:ing)? up|follow-up|take care of|deadline|due (?:on|by|date)|next steps?|remember to|(?:do not|don't|dont) forget to)\b/.exec(
        normal,
      );
    if (explicit && !(past && /^follow/.test(explicit[0]))) take(explicit.index, null);
    // "... by friday": a deadline on something still to do.
    const deadline = unit.dates.find((d) => d.deadline);
    if (!cue && deadline && !past && tokens.some((t) => t.pos === 'VERB')) take(0, null);
    const found = cue as { at: number; owner: string | null } | null;
    if (!found) return null;
    return { owner: found.owner, due: pickDue(unit.dates, found.at) };
  }

  /** Owner for a subject word before a modal: a name, a pronoun, null for "someone", undefined when it is not a person. */
  private ownerOf(
    tokens: WordToken[],
    si: number,
    subject: string,
    unit: TextUnit,
    context: DocumentContext,
  ): string | null | undefined {
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
      if (subject === 'you') return this.addressed(unit, context);
      return subject;
    }
    if (subject === 'everyone' || subject === 'everybody') return 'everyone';
    if (GROUP_OWNERS.has(subject)) return null;
    if (TEAM_WORDS.has(subject)) {
      const prev = tokens[si - 1];
      return prev && (prev.pos === 'NOUN' || prev.pos === 'PROPN' || prev.pos === 'ADJ') && !prev.stop
        ? `${prev.value} ${tokens[si]!.value}`.toLowerCase()
        : 'the team';
    }
    return this.nameOrNull(subject, tokens, si, unit, context) ?? undefined;
  }

  /** The word at `ti` as a person's name, or null when it does not look like one. */
  private nameOrNull(
    word: string,
    tokens: WordToken[],
    ti: number,
    unit: TextUnit,
    context: DocumentContext,
    object = false,
  ): string | null {
    const token = tokens[ti];
    if (!token || token.normal !== word) return null;
    if (NOT_A_NAME.has(word) || DATE_WORDS.has(word) || token.stop || word.length < 2 || /\d/.test(word)) return null;
    if (token.pos !== 'NOUN' && token.pos !== 'PROPN' && token.pos !== 'ADJ' && token.pos !== 'X') return null;
    if (!unit.uncased && !/^[A-Z]/.test(token.value)) return null;
    if (context.determinedNouns.has(token.lemma) || context.determinedNouns.has(word)) return null;
    const prev = object ? undefined : tokens[ti - 1];
    if (prev) {
      if (POSSESSIVES.has(prev.normal) || prev.pos === 'DET' || prev.pos === 'ADP' || prev.pos === 'NUM') return null;
      if (
        (prev.pos === 'NOUN' || prev.pos === 'PROPN') &&
        !DATE_WORDS.has(prev.lemma) &&
        prev.normal !== 'item' &&
        prev.normal !== 'items'
      )
        return null;
      if (
        prev.pos === 'ADJ' &&
        !['too', 'very', 'so', 'really', 'quite', 'pretty', 'is', 'was', 'are', 'were', 'be'].includes(
          tokens[ti - 2]?.normal ?? '',
        )
      ) {
        if (!unit.uncased) return null;
        if (!['high', 'low', 'good', 'fine', 'done', 'ready', 'late', 'great', 'right', 'okay'].includes(prev.normal))
          return null;
      }
    }
    return token.value.charAt(0).toUpperCase() + token.value.slice(1);
  }

  /** "Dana, can you …" / "… by Friday, Dana?": the person addressed. */
  private vocative(unit: TextUnit): string | null {
    const first = unit.tokens[0];
    const second = unit.tokens[1];
    if (
      first &&
      second &&
      (second.normal === ',' || ['can', 'could', 'would', 'will', 'please', 'you'].includes(second.normal))
    ) {
      // Lowercase names get any tag ("mary" is an ADJ to the tagger); interjections are not names.
      // ("Good, then you will…" tags "Good" as a proper noun.)
      const nameLike =
        !INTERJECTION_LIKE.has(first.normal) &&
        (first.pos === 'PROPN' || (unit.uncased && ['NOUN', 'ADJ', 'X'].includes(first.pos)));
      if (nameLike && !NOT_A_NAME.has(first.normal) && !DATE_WORDS.has(first.normal) && !first.stop) {
        if (unit.uncased && second.normal !== ',' && !['can', 'could', 'would', 'you'].includes(second.normal))
          return null;
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

  /**
   * Who "you" is: the person the sentence addresses by name, else one the same speaker just addressed
   * ("Thanks, Ines. You will…"), else the named speaker this turn answers ("Good, then you will…" after
   * Ines spoke). "you" when none of them is named: a label or a guess would be a false owner.
   */
  private addressed(unit: TextUnit, context: DocumentContext): string {
    const direct = this.vocative(unit);
    if (direct) return direct;
    let i = unit.index - 1;
    for (; i >= 0 && context.units[i]!.segment_id === unit.segment_id; i--) {
      const earlier = this.vocative(context.units[i]!);
      if (earlier) return earlier;
    }
    const before = context.units[i];
    if (before && unit.speaker && before.speaker && before.speaker !== unit.speaker && before.speakerName)
      return before.speakerName;
    return 'you';
  }

  private speakerOr(unit: TextUnit, fallback: string): string {
    return unit.speakerName ?? unit.speaker ?? fallback;
  }

  isGroupOwner(owner: string | null): boolean {
    return owner === null || owner === 'we' || owner === 'everyone' || owner === 'the team';
  }

  isDecision(unit: TextUnit): boolean {
    const { normal } = unit;
    if (/\?\s*$/.test(unit.text)) return false;
    // A proposal the speaker puts as the way forward: "let's move the budget meeting to Thursday". Not the
    // meeting's own flow ("let's move on", "let's take a look"), a pause ("let's take a break"), or a task
    // with a deadline ("let's send the report by Friday").
    const proposal = /^(?:(?:so|ok|okay|alright|right|then|fine)[, ]+)?let(?:'s| us|s) ([a-z]+)(?: ([a-z]+))?/.exec(
      normal,
    );
    if (proposal && !unit.dates.some((d) => d.deadline)) {
      const [, verb, next] = proposal;
      // "let's move on", "let's switch to the next item" steer; "let's switch the backup to the new array" decides.
      const steers =
        verb === 'move' || verb === 'switch'
          ? next === undefined || ['on', 'to', 'over', 'gears', 'ahead', 'along'].includes(next)
          : PROPOSAL_FLOW.has(verb!);
      if (!steers) return true;
    }
    const cue =
      /\b(?:decided|decide on|agreed|agree (?:on|to|that)|settled on|concluded|opted (?:for|to)|approved|signed off|decision|go with|going with|go ahead with|consensus|resolved to|the plan is to|chose|chosen|final call|will use|are using)\b/g;
    for (const m of normal.matchAll(cue)) {
      if (/^(?:will use|are using)$/.test(m[0]) && !/\bwe\b/.test(normal.slice(Math.max(0, m.index - 12), m.index)))
        continue;
      const window = normal.slice(Math.max(0, m.index - 40), m.index);
      if (
        /\b(?:not|n't|no|never|yet to|undecided|still need to|need to|have to|haven't|hasn't|pending|if|whether|should we|do we|did we|can we|could we|before we|until|once)\s*(?:\S+\s*){0,3}$/.test(
          window,
        )
      )
        continue;
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
  if (t.normal === 'let' && (next.normal === 'us' || next.normal === "'s"))
    return !COMPLEMENT_TAKERS.has(prev.normal) || prev.normal === 'so' || prev.normal === 'and';
  if (PERSON_PRONOUNS.has(t.normal)) {
    if (!(next.pos === 'AUX' || next.pos === 'VERB' || SUBJECT_MODALS.has(next.normal))) return false;
    if (COMPLEMENT_TAKERS.has(prev.normal) && !['and', 'but', 'so', 'or'].includes(prev.normal)) return false;
    if (prev.pos === 'ADP' || prev.pos === 'SCONJ' || prev.pos === 'DET' || prev.pos === 'AUX' || prev.pos === 'PART')
      return false;
    if (prev.pos === 'VERB' && !['done', 'finished', 'ready'].includes(prev.normal)) return false;
    return true;
  }
  if ((t.pos === 'NOUN' || t.pos === 'PROPN') && !t.stop && !DATE_WORDS.has(t.normal) && !NOT_A_NAME.has(t.normal)) {
    const modal = NAME_MODALS.has(next.normal) || (next.normal === 'has' && tokens[k + 1]?.normal === 'to');
    if (!modal) return false;
    if (POSSESSIVES.has(prev.normal) || prev.pos === 'DET' || prev.pos === 'ADP' || prev.pos === 'NUM') return false;
    if ((prev.pos === 'NOUN' || prev.pos === 'PROPN') && !DATE_WORDS.has(prev.normal)) return false;
    if (prev.pos === 'ADJ')
      return (
        ['too', 'very', 'so', 'really', 'quite', 'pretty'].includes(tokens[i - 2]?.normal ?? '') ||
        ['high', 'low', 'done', 'ready', 'late'].includes(prev.normal)
      );
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

/** Verbs after "let's" that steer the meeting rather than decide anything. */
const PROPOSAL_FLOW = new Set([
  'begin',
  'start',
  'get',
  'talk',
  'discuss',
  'look',
  'see',
  'think',
  'check',
  'turn',
  'go',
  'take',
  'hear',
  'continue',
  'recap',
  'review',
  'wrap',
  'try',
  'focus',
  'just',
  'not',
  'say',
  'figure',
  'find',
]);

/** Verbs after "I can" that say what the speaker perceives or is able to, not what they offer to do. */
const OFFER_NOT = new Set([
  'not',
  "n't",
  'see',
  'hear',
  'imagine',
  'understand',
  'tell',
  'say',
  'guess',
  'think',
  'feel',
  'be',
  'only',
  'never',
  'probably',
  'totally',
]);
