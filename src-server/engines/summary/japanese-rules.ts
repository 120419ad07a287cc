// The Japanese rules of the extractive summary: sentence units from kuromoji's tokens, action items
// and decisions from sentence-final forms. The dictionary loads from its npm package on first use.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IpadicFeatures, Tokenizer } from 'kuromoji';
import type { TranscriptDocument, TranscriptSegment } from '../../../src-shared/transcript-document.js';
import { JA_DATE, pickDue } from './dates.js';
import { textNamesOwner } from './summary-text.js';
import {
  stripMarkup,
  throwIfAborted,
  withoutStop,
  type DateMention,
  type Found,
  type LanguageRules,
  type TextUnit,
} from './text-units.js';

const require = createRequire(import.meta.url);

let kuromojiTokenizer: Promise<Tokenizer<IpadicFeatures>> | undefined;
export function japaneseTokenizer(): Promise<Tokenizer<IpadicFeatures>> {
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
  'する いる ある なる れる られる できる 思う 言う いう こと もの よう ため それ これ あれ どれ そこ ここ 皆さん みなさん ところ 方 感じ 時 今日 本日 以上 お疲れ様 様 さん よろしく お願い 何 なに 方'.split(
    ' ',
  ),
);
const JA_SENTENCE_END = /[。！？!?．]/;
const JA_FINAL_AUX = new Set(['ます', 'です', 'た', 'だ', 'う', 'ん']);

export class JapaneseRules implements LanguageRules {
  readonly emptyOverview = '発話はありませんでした。';

  topicsLead(topics: string[]): string {
    return topics.length ? `主な話題：${topics.join('、')}。` : '';
  }

  decidedLead(decisions: string[]): string {
    return decisions.length ? `決定事項：${decisions.map(withoutStop).join('／')}。` : '';
  }

  actionsLead(actions: { owner: string | null; text: string }[]): string {
    if (actions.length === 0) return '';
    const item = (a: { owner: string | null; text: string }) =>
      a.owner && !textNamesOwner(a.text, a.owner) ? `${a.owner}（${withoutStop(a.text)}）` : withoutStop(a.text);
    return `担当：${actions.map(item).join('／')}。`;
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
          end =
            final &&
            next.pos !== '助詞' &&
            next.pos !== '助動詞' &&
            next.pos_detail_1 !== '非自立' &&
            next.pos !== '記号';
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

  private makeUnit(
    segment: TranscriptSegment,
    clean: string,
    all: IpadicFeatures[],
    a: number,
    b: number,
    index: number,
  ): TextUnit | null {
    const slice = all.slice(a, b + 1);
    while (slice.length && (slice[0]!.pos === '記号' || slice[0]!.pos === '接続詞' || slice[0]!.pos === 'フィラー'))
      slice.shift();
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
      const rest = normal.slice(m.index + m[0].length);
      const suffix = /^(?:までに|まで|中に|迄に)/.exec(rest)?.[0] ?? '';
      dates.push({ text: m[0], due: m[0] + suffix, deadline: suffix.length > 0, at: m.index });
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
    const requestOrPromise =
      /(?:て|で)(?:ください|下さい|くれますか|もらえますか|いただけますか)|お願い(?:します|いたします|できますか)|(?:て|で)おきます|(?:て|で)おく|しましょう|ましょう|担当(?:します|してください|は|で)|対応(?:します|をお願い)|必要があります|なければ(?:なりません|いけません)|なくては|ないといけません|やります|宿題|アクションアイテム|TODO/i;
    const byDate = /までに|迄に/;
    const past = /(?:ました|でした|だった|終わった|済み)[。！？]?$/;
    // Greetings ("よろしくお願いします"), choices ("B案で行きましょう", a decision) and the meeting's flow
    // ("始めましょう") are not tasks.
    if (/^(?:では|それでは|じゃあ)?[、,]?(?:どうぞ)?よろしくお願い(?:します|いたします|致します)[。！!]?$/.test(normal))
      return null;
    if (/で(?:行|い)きましょう/.test(normal) && !/までに|ください/.test(normal)) return null;
    if (JA_FLOW_PROPOSAL.test(normal)) return null;
    const strong = requestOrPromise.exec(normal);
    const commit =
      /(?:さん|くん|君|様|氏|部長|課長|私|僕|俺|わたし|自分)(?:が|は|の方で|から)[^。]*?(?:します|ます)[。！？]?$/.test(
        normal,
      ) && !past.test(normal);
    if (!strong && !commit && !(byDate.test(normal) && !past.test(normal))) return null;
    if (!strong && past.test(normal)) return null;
    if (/(?:ません|ないです|ありません)[。]?$/.test(normal) && !/なければ|ないといけ/.test(normal)) return null;
    const cueAt = strong?.index ?? 0;
    return {
      owner: this.owner(normal, unit.speakerName ?? null),
      due: pickDue(unit.dates, Math.min(cueAt, unit.dates.find((d) => d.deadline)?.at ?? cueAt)),
    };
  }

  /** Who does it: a name said, else the speaker's name for 私/僕/… ("I") when the transcript has one. */
  private owner(normal: string, speaker: string | null): string | null {
    const named =
      /([\p{Script=Han}\p{Script=Katakana}A-Za-zー]{1,8}?)(さん|くん|君|様|氏|部長|課長|さま)(?:が|は|には|に|から|の方で)/u.exec(
        normal,
      ) ?? /^([\p{Script=Han}\p{Script=Katakana}A-Za-zー]{1,8}?)(さん|くん|君|様|氏|部長|課長|さま)[、,]/u.exec(normal);
    // 私たち ("we") is the group, said as it was: not the speaker's name.
    const group = new RegExp(`(${JA_GROUP.join('|')})(?:が|は|で|の方で|から)`).exec(normal);
    const self = /(私|僕|俺|わたし|自分)(?:が|は|の方で|から)/.exec(normal);
    const assigned =
      /担当は([\p{Script=Han}\p{Script=Katakana}A-Za-zー]{1,8}?(?:さん|くん|君|様|氏)?)(?:です|で|に)/u.exec(normal);
    const candidates = [
      named && { at: named.index, who: named[1]! + named[2]! },
      group && { at: group.index, who: group[1]! },
      self && { at: self.index, who: speaker ?? self[1]! },
      assigned && { at: assigned.index, who: assigned[1]! },
    ]
      .filter((c): c is { at: number; who: string } => Boolean(c))
      .sort((x, y) => x.at - y.at);
    return candidates[0]?.who ?? null;
  }

  isGroupOwner(owner: string | null): boolean {
    return owner === null || JA_GROUP.includes(owner) || owner === '皆さん' || owner === 'みんな';
  }

  isDecision(unit: TextUnit): boolean {
    const { normal } = unit;
    if (
      /(?:決まっていない|決まっていません|未定|決まらな|まだ決め|決めていません|決めていない|検討中|か[。？?]?$)/.test(
        normal,
      )
    )
      return false;
    // A proposal put as the way forward ("五百部印刷することにしましょう", "月曜日に移しましょう"), not the
    // meeting's own flow ("始めましょう", "次に移りましょう"), a question ("…しましょうか"), or a task with a
    // deadline ("金曜日までに送りましょう").
    if (/ましょう[。！!]?$/.test(normal) && !JA_FLOW_PROPOSAL.test(normal) && !unit.dates.some((d) => d.deadline))
      return true;
    return /決定|決まりました|決まった|決めました|決めた|合意|承認|ことにしました|ことになりました|ことにします|方針|で(?:行|い)きます|で(?:行|い)きましょう|採用/.test(
      normal,
    );
  }
}

/** "We": the group, named as said rather than as the speaker. */
const JA_GROUP = ['私たち', 'わたしたち', '僕たち', '僕ら', '我々', 'われわれ', '私ども'];

/** "Let's …" that runs the meeting: start, move on, look, talk, break, finish. */
const JA_FLOW_PROPOSAL =
  /(?:始め|はじめ|進み|移り|うつり|入り|戻り|見|話し|話し合い|確認し|休憩し|休み|終わり|終え|締め|いき|行き)ましょう[。！!]?$/;

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
