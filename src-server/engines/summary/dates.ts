// Dates and times in meeting talk: what counts as one ("next tuesday", "end of the week", "金曜日"),
// when it reads as a deadline ("by friday", "まで"), and which one is an action item's due date.
import { indexAt, type DateMention, type WordToken } from './text-units.js';

const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const MONTHS =
  'january|february|april|june|july|august|september|october|november|december|jan|feb|apr|jun|jul|aug|sep|sept|oct|nov|dec';
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
export const DATE_WORDS = new Set(
  `${WEEKDAYS}|${MONTHS}|march|today|tomorrow|tonight|yesterday|week|month|quarter|year|day|morning|afternoon|evening|eod|noon|weekend|sprint`.split(
    '|',
  ),
);

const DEADLINE_WORDS = /(?:^| )(by|before|until|till|no later than|due|due by|due on|not later than)(?: the)?$/;

export function findEnglishDates(
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
    if (
      ['now', 'then', 'once', 'second', 'minute', 'moment', 'morning', 'afternoon', 'evening', 'night'].includes(
        word,
      ) &&
      from === to
    )
      continue;
    spans.push({ from: tokens[from]!.at, to: tokens[to]!.at + tokens[to]!.normal.length });
  }
  for (const m of normal.matchAll(EXTRA_DATES)) {
    const from = m.index;
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
    const said = tokens
      .slice(fi, li + 1)
      .map((t) => t.value)
      .join(' ')
      .replace(/ '/g, "'");
    if (said.toLowerCase().replace(/\s+/g, ' ') === text.replace(/_/g, ' ')) text = said;
    const deadline = Boolean(prep);
    const due = prep ? `${prep[0].trim()} ${text}` : text;
    start = Math.max(0, prep ? start - prep[0].length : start);
    return { text, due, deadline, at: start };
  });
}

/** The due date of an action: the deadline after its cue, else any deadline, else the first date after it. */
export function pickDue(dates: DateMention[], cueAt: number): string | null {
  const after = dates.filter((d) => d.at >= cueAt);
  return (after.find((d) => d.deadline) ?? dates.find((d) => d.deadline) ?? after[0] ?? dates[0])?.due ?? null;
}

/** Japanese date and time expressions: 明日, 来週の金曜日, 3月15日, 午後2時半. */
export const JA_DATE =
  /(?:今日|本日|明日|あした|明後日|あさって|今週末|来週末|今週|来週|再来週|今月末|来月末|今月|来月|月末|週末|年内|年度末|今期中|午前中|(?:\d{1,4}年)?\d{1,2}月\d{1,2}日|\d{1,2}月(?:中|末)?|\d{1,2}日)(?:の?(?:[月火水木金土日]曜日?))?(?:の?(?:朝|昼|夕方|夜|午前|午後)(?:\d{1,2}時(?:半|\d{1,2}分)?)?)?|(?:(?:今週|来週|再来週)の?)?[月火水木金土日]曜日?(?:の?(?:朝|昼|夕方|夜|午前|午後))?|(?:午前|午後)?\d{1,2}時(?:半|\d{1,2}分)?/g;
