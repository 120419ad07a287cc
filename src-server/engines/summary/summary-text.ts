// A summary as readable text, shared by the extractive and the LLM summary engines.
import type { SummaryDetails, SummaryItem } from '../../../src-shared/analysis.js';

function formatTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}

/**
 * True when an action item's text already names its owner ("We should hire…" owned by "we", "Tom, you
 * will…" owned by Tom): the overview's "To do:" then quotes it without the owner before it. The list
 * below keeps "(owner: …)" as the item's field. Words are matched whole
 * in Latin script; Japanese has no spaces, so there the name anywhere in the text counts (私たちは…).
 */
export function textNamesOwner(text: string, owner: string): boolean {
  const name = owner.trim();
  if (!name) return false;
  if (!/^[\p{Script=Latin}\p{N}\s'’.-]+$/u.test(name)) return text.includes(name);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

/** The headings of the readable summary, in the transcript's language (English for any other). */
const HEADINGS = {
  en: {
    keyPoints: 'Key points:',
    actionItems: 'Action items:',
    decisions: 'Decisions:',
    none: 'None identified.',
    owner: 'owner: ',
    due: 'due: ',
    metaSeparator: ', ',
    open: ' (',
    close: ')',
  },
  ja: {
    keyPoints: '要点：',
    actionItems: 'アクションアイテム：',
    decisions: '決定事項：',
    none: 'なし',
    owner: '担当：',
    due: '期限：',
    metaSeparator: '、',
    open: '（',
    close: '）',
  },
} as const;

function headingsFor(language: string): (typeof HEADINGS)[keyof typeof HEADINGS] {
  return language.toLowerCase().split(/[-_]/)[0] === 'ja' ? HEADINGS.ja : HEADINGS.en;
}

/**
 * The readable summary: overview paragraph, then "Key points:", "Action items:" and "Decisions:" bullets
 * (要点, アクションアイテム and 決定事項 for Japanese), each bullet starting with the time in the audio it
 * comes from. Shared with the LLM summary engine.
 */
export function formatSummaryText(details: SummaryDetails, language = 'en'): string {
  const h = headingsFor(language);
  const at = (item: SummaryItem) => `[${formatTime(item.start)}]`;
  const parts: string[] = [details.overview.trim()];
  if (details.key_points.length)
    parts.push([h.keyPoints, ...details.key_points.map((k) => `- ${at(k)} ${k.text}`)].join('\n'));
  const actionLines = details.action_items.map((a) => {
    const meta = [a.owner ? `${h.owner}${a.owner}` : null, a.due ? `${h.due}${a.due}` : null]
      .filter(Boolean)
      .join(h.metaSeparator);
    return `- ${at(a)} ${a.text}${meta ? `${h.open}${meta}${h.close}` : ''}`;
  });
  parts.push([h.actionItems, ...(actionLines.length ? actionLines : [`- ${h.none}`])].join('\n'));
  const decisionLines = details.decisions.map((d) => `- ${at(d)} ${d.text}`);
  parts.push([h.decisions, ...(decisionLines.length ? decisionLines : [`- ${h.none}`])].join('\n'));
  return parts.join('\n\n') + '\n';
}
