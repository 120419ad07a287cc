import { useEffect } from 'react';
import { useT } from '../../i18n/use-t';
import { analysisKey, selectSlot, useAnalysisStore } from '../../stores/analysis-store';
import { EMOTION_COLORS } from '../transcript/timeline-lanes';
import { AnalysisHead, MomentButton } from './analysis-status';

export function EmotionPanel({ id }: { id: string }) {
  const t = useT();
  const slot = useAnalysisStore(selectSlot(analysisKey(id, 'emotion')));
  const { load, request } = useAnalysisStore.getState();
  useEffect(() => {
    void load(id, 'emotion');
  }, [id, load]);
  const entries = slot.view?.status === 'COMPLETED' ? (slot.view.emotions ?? []) : [];
  const overall = entries.find((entry) => entry.segment_id === null);
  const perSegment = entries.filter((entry) => entry.segment_id !== null);
  return (
    <div className="emotion-panel">
      <AnalysisHead kind="emotion" slot={slot} onRequest={() => void request(id, 'emotion')} />
      {entries.length > 0 && (
        <div data-testid="emotion-result">
          {overall && (
            // The overall score is the length-weighted mean of the segments' scores, so calmer segments pull
            // it below the segments that carry the label: both facts are said, or it reads as a mistake.
            <p data-testid="emotion-overall">
              {t('analysis.emotion.overall', {
                label: t(`emotion.${overall.label}`),
                score: `${Math.round(overall.score * 100)}%`,
              })}
              {perSegment.length > 1 && (
                <>
                  {' '}
                  <span className="hint">
                    {t('analysis.emotion.overallShare', {
                      count: perSegment.filter((entry) => entry.label === overall.label).length,
                      total: perSegment.length,
                    })}
                  </span>
                </>
              )}
            </p>
          )}
          <p className="hint">{t('analysis.emotion.legend')}</p>
          <ul className="moment-list">
            {perSegment.map((entry) => (
              <li key={entry.segment_id}>
                <MomentButton start={entry.start} />
                <span className="swatch" style={{ background: EMOTION_COLORS[entry.label] }} aria-hidden="true" />
                <span>
                  {t(`emotion.${entry.label}`)} <span className="hint">{Math.round(entry.score * 100)}%</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
