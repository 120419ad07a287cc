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
