import { useEffect, useMemo } from 'react';
import type { SummaryItem, ActionItem } from '../../../src-shared/analysis';
import { useT } from '../../i18n/use-t';
import { analysisKey, selectSlot, useAnalysisStore } from '../../stores/analysis-store';
import { selectSegments, selectSpeakerNames, speakersOf, useTranscriptStore } from '../../stores/transcript-store';
import { speakerName } from '../transcript/speakers';
import { AnalysisHead, MomentButton } from './analysis-status';

export function SummaryPanel({ id }: { id: string }) {
  const t = useT();
  const slot = useAnalysisStore(selectSlot(analysisKey(id, 'summary')));
  const { load, request } = useAnalysisStore.getState();
  useEffect(() => {
    void load(id, 'summary');
  }, [id, load]);
  const summary = slot.view?.status === 'COMPLETED' ? slot.view.summary : null;
  return (
    <div className="summary-panel">
      <AnalysisHead kind="summary" slot={slot} onRequest={() => void request(id, 'summary')} />
      {summary && (
        <div data-testid="summary-result">
          <h3 className="section-title">{t('analysis.summary.overview')}</h3>
          <p className="overview">{summary.overview || summary.text}</p>
          {/* A short recording's overview says all there is: no key points, and no heading saying so (as the
              summary's text leaves it out). Action items and decisions say when there are none. */}
          {summary.key_points.length > 0 && (
            <ItemList title={t('analysis.summary.keyPoints')} items={summary.key_points} />
          )}
          <ItemList title={t('analysis.summary.actionItems')} items={summary.action_items} />
          <ItemList title={t('analysis.summary.decisions')} items={summary.decisions} />
          <ItemList title={t('analysis.summary.dates')} items={summary.dates} />
        </div>
      )}
    </div>
  );
}

/**
 * Owners the summary keeps as said when the sentence names no one ("we will send…", "you should…",
 * 私たちで…): as a badge they name nobody ("Owner: we"), so the item shows none.
 */
const PRONOUNS = new Set([
  'i',
  'we',
  'you',
  'he',
  'she',
  'they',
  '私',
  'わたし',
  '僕',
  '俺',
  '自分',
  '私たち',
  'わたしたち',
  '僕たち',
  '僕ら',
  '我々',
  'われわれ',
  '私ども',
]);

function OwnerBadge({ owner }: { owner: string | null }) {
  const t = useT();
  return owner ? <span className="badge">{t('analysis.summary.owner', { owner })}</span> : null;
}

function ItemList({ title, items }: { title: string; items: Array<SummaryItem | ActionItem> }) {
  const t = useT();
  // Owners are speaker labels: shown by the names the transcript shows.
  const segments = useTranscriptStore(selectSegments);
  const names = useTranscriptStore(selectSpeakerNames);
  const speakers = useMemo(() => speakersOf(segments), [segments]);
  const ownerName = (item: SummaryItem | ActionItem): string | null => {
    const owner = 'owner' in item ? item.owner : null;
    if (!owner) return null;
    if (speakers.includes(owner)) return speakerName(owner, names, t('transcript.speaker.unknown'), speakers);
    return PRONOUNS.has(owner.toLowerCase()) ? null : owner;
  };
  return (
    <>
      <h3 className="section-title">{title}</h3>
      {items.length === 0 ? (
        <p className="hint">{t('analysis.summary.empty')}</p>
      ) : (
        <ul className="moment-list">
          {items.map((item, index) => (
            <li key={index}>
              <MomentButton start={item.start} />
              <span>
                {item.text}
                <OwnerBadge owner={ownerName(item)} />
                {'due' in item && item.due && (
                  <span className="badge">{t('analysis.summary.due', { due: item.due })}</span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
