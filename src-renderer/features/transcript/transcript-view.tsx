// One transcription: player, timeline, transcript and analyses side by side.
import { useEffect, useState } from 'react';
import { isProcessing } from '../../../src-shared/api/vocabulary';
import { useT } from '../../i18n/use-t';
import { useNavigationStore } from '../../stores/navigation-store';
import { usePlayerStore } from '../../stores/player-store';
import { useTranscriptStore } from '../../stores/transcript-store';
import { AnalysisPanels } from '../analysis/analysis-panels';
import { ProgressLine } from '../progress/progress-line';
import { ApplyDictionaryMenu } from './apply-dictionary-menu';
import { ConflictBanner } from './conflict-banner';
import { EditToolbar, useEditKeys, type FindMode } from './edit-toolbar';
import { ExportMenu } from './export-menu';
import { FindReplacePanel } from './find-replace-panel';
import { LanguageWarningBanner } from './language-warning';
import { TimelineLanes } from './timeline-lanes';
import { ShortcutSheet } from './shortcut-sheet';
import { TranscriptPane } from './transcript-pane';
import { TransportBar } from './transport-bar';
import { useTransportKeys } from './use-transport-keys';
import { Waveform } from './waveform';
import { ErrorDetails, ErrorText } from '../../lib/error-details';
import { failureText } from '../../i18n/error-text';

export function TranscriptView({ id, at, play }: { id: string; at?: number; play?: boolean }) {
  const t = useT();
  const detail = useTranscriptStore((state) => state.detail);
  const error = useTranscriptStore((state) => state.error);
  const remove = useTranscriptStore((state) => state.remove);
  const go = useNavigationStore((state) => state.go);

  useEffect(() => {
    // The player's peaks first: main answers in order, and the transcript of a long recording takes it
    // long enough to read that the waveform would wait behind it (decision 0079).
    void usePlayerStore.getState().load(id, at, play);
    void useTranscriptStore.getState().open(id);
  }, [id, at, play]);
  useEffect(
    () => () => {
      usePlayerStore.getState().unload();
      useTranscriptStore.getState().close();
    },
    [],
  );
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  useTransportKeys(() => setShortcutsOpen(true));
  const [find, setFind] = useState<FindMode | null>(null);
  useEditKeys((mode) => detail?.document && setFind(mode));

  const summary = detail?.summary;
  const document = detail?.document ?? null;
  // Finished with nothing said (a short tone, silence): an empty pane and a lone speaker lane looked broken.
  const noSpeech = document !== null && document.segments.length === 0;
  const running = summary ? isProcessing(summary.status) : false;

  // Opened before the audio reached the server, the player found none: try again once it is being processed.
  const status = summary?.status;
  useEffect(() => {
    const player = usePlayerStore.getState();
    if (status && player.error && !player.peaks && player.transcriptionId === id) {
      player.unload();
      void player.load(id);
    }
  }, [status, id]);

  return (
    <div className="transcript-view" data-testid="transcript-view">
      <div className="view-header">
        <button type="button" className="button-quiet" onClick={() => go({ name: 'library' })}>
          ← {t('common.back')}
        </button>
        <h1 className="view-title" data-testid="transcript-title">
          {summary?.name ?? t('common.loading')}
        </h1>
        {summary && <span className={`status status-${summary.status}`}>{t(`status.${summary.status}`)}</span>}
        {detail?.unsyncedEdits && <span className="badge badge-warn">{t('transcript.unsynced')}</span>}
        <span className="spacer" />
        {document && <ApplyDictionaryMenu />}
        {document && <ExportMenu />}
        {summary && (
          <button
            type="button"
            className="button-quiet danger"
            onClick={() => {
              if (window.confirm(t('transcript.deleteConfirm', { name: summary.name })))
                void remove().then((failure) => !failure && go({ name: 'library' }));
            }}
          >
            {t('transcript.delete')}
          </button>
        )}
      </div>
      {error && (
        <div className="error-banner" role="alert">
          <ErrorText error={error} />
        </div>
      )}
      <ConflictBanner />
      {summary && document && <LanguageWarningBanner summary={summary} />}
      {summary && !document && !running && (
        <div className="empty" role="status">
          {summary.status === 'FAILED'
            ? t('transcript.failed', {
                reason: failureText(t, summary.failureCode) ?? summary.failureReason ?? t('library.rerun.noReason'),
              })
            : t('transcript.notReady', { status: t(`status.${summary.status}`) })}
          {summary.status === 'FAILED' && summary.failureCode !== null && (
            <ErrorDetails detail={summary.failureReason} />
          )}
        </div>
      )}
      {/* Transcribing again in place: the old transcript stays readable, and this says how far the new one is. */}
      {summary && running && document && (
        <div className="running-strip" data-testid="running-strip">
          <ProgressLine summary={summary} variant="view" />
        </div>
      )}
      {(document || running) && (
        <section className="player" aria-label={t('player.label')} ref={measurePlayer}>
          <Waveform />
          {/* Lanes come with the transcript: while it runs there are no speakers or emotions to draw yet. */}
          {document && !noSpeech && <TimelineLanes />}
          <TransportBar onShowShortcuts={() => setShortcutsOpen(true)} />
        </section>
      )}
      {summary && running && !document && (
        <section className="running-panel" data-testid="running-panel">
          <ProgressLine summary={summary} variant="view" />
          <p className="running-note">{t('transcript.running')}</p>
        </section>
      )}
      {document && (
        <>
          <EditToolbar onFind={setFind} />
          {find && <FindReplacePanel mode={find} onMode={setFind} onClose={() => setFind(null)} />}
          <div className="transcript-columns">
            {noSpeech ? (
              <div className="empty no-speech" role="status" data-testid="no-speech">
                <p>
                  <strong>{t('transcript.noSpeech')}</strong>
                </p>
                <p>{t('transcript.noSpeechHint', { again: t('transcript.transcribeAgain') })}</p>
              </div>
            ) : (
              <TranscriptPane />
            )}
            <AnalysisPanels id={id} />
          </div>
        </>
      )}
      {shortcutsOpen && <ShortcutSheet onClose={() => setShortcutsOpen(false)} />}
    </div>
  );
}

/**
 * A ref for the pinned player that keeps its height as `--player-height` on the view, so what else is
 * pinned (the analysis panel) sits under the player rather than behind it. The height changes with the
 * lanes, the window's height and wrapping.
 */
function measurePlayer(player: HTMLElement | null) {
  const view = player?.parentElement;
  if (!player || !view) return;
  const resize = new ResizeObserver(() => view.style.setProperty('--player-height', `${player.offsetHeight}px`));
  resize.observe(player);
  return () => {
    resize.disconnect();
    view.style.removeProperty('--player-height');
  };
}
