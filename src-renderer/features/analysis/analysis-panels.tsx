// Summary, emotion and translation of the open transcription, as tabs beside the transcript.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { AnalysisKind } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useAnalysisStore } from '../../stores/analysis-store';
import { useTranscriptStore } from '../../stores/transcript-store';
import { EmotionPanel } from './emotion-panel';
import { SummaryPanel } from './summary-panel';
import { TranslationPanel } from './translation-panel';

const KINDS: AnalysisKind[] = ['summary', 'emotion', 'translation'];

export function AnalysisPanels({ id }: { id: string }) {
  const t = useT();
  const baseId = useId();
  const [kind, setKind] = useState<AnalysisKind>('summary');
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);

  const onKeyDown = (event: KeyboardEvent) => {
    const index = KINDS.indexOf(kind);
    let next = index;
    if (event.key === 'ArrowRight') next = (index + 1) % KINDS.length;
    else if (event.key === 'ArrowLeft') next = (index + KINDS.length - 1) % KINDS.length;
    else return;
    // Arrow keys move between tabs here, not through the audio.
    event.preventDefault();
    event.stopPropagation();
    setKind(KINDS[next]!);
    tabs.current[next]?.focus();
  };

  return (
    <section className="analysis" aria-label={t('analysis.tabs')}>
      <div className="tabs" role="tablist" aria-label={t('analysis.tabs')} onKeyDown={onKeyDown}>
        {KINDS.map((value, index) => (
          <button
            key={value}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${value}`}
            aria-selected={kind === value}
            aria-controls={`${baseId}-panel-${value}`}
            tabIndex={kind === value ? 0 : -1}
            className="tab"
            onClick={() => setKind(value)}
          >
            {t(`analysis.${value}`)}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel-${kind}`}
        aria-labelledby={`${baseId}-tab-${kind}`}
        className="tab-panel"
        data-testid={`analysis-${kind}`}
      >
        {kind === 'summary' && <SummaryPanel id={id} />}
        {kind === 'emotion' && <EmotionPanel id={id} />}
        {kind === 'translation' && <TranslationPanel id={id} />}
      </div>
      <PrefetchEmotion id={id} />
      <ReloadOnEdit id={id} />
    </section>
  );
}

/** The emotion lane on the timeline needs the result even while another tab is open. */
function PrefetchEmotion({ id }: { id: string }) {
  useEffect(() => {
    void useAnalysisStore.getState().load(id, 'emotion');
  }, [id]);
  return null;
}

/** An edit (here, through History, a dictionary) can leave the results behind the transcript: read them again. */
function ReloadOnEdit({ id }: { id: string }) {
  const document = useTranscriptStore((state) => (state.id === id ? state.detail?.document : undefined));
  const unsynced = useTranscriptStore((state) => (state.id === id ? state.detail?.unsyncedEdits : undefined));
  const seen = useRef(document);
  useEffect(() => {
    // The panels read their results when they open; only a change after that needs another read.
    const before = seen.current;
    seen.current = document;
    if (!before || !document || before === document) return;
    void useAnalysisStore.getState().reloadShown(id);
  }, [id, document, unsynced]);
  return null;
}
