// The shell: navigation, the connection indicator and the view for the current route. Stores start
// following main's events here, once.
import { useEffect, useLayoutEffect } from 'react';
import { DictionariesView } from './features/dictionaries/dictionaries-view';
import { LibraryView } from './features/library/library-view';
import { SettingsView } from './features/settings/settings-view';
import { AppHeader } from './features/shell/app-header';
import { TranscriptView } from './features/transcript/transcript-view';
import { useAnalysisStore } from './stores/analysis-store';
import { useConnectionStore } from './stores/connection-store';
import { useLibraryStore } from './stores/library-store';
import { selectRoute, useNavigationStore } from './stores/navigation-store';
import { usePlayerStore } from './stores/player-store';
import { selectUiLanguage, useSettingsStore } from './stores/settings-store';
import { followOpenTranscript } from './lib/follow-open-transcript';
import { useTranscriptStore } from './stores/transcript-store';
import { useUploadsStore } from './stores/uploads-store';

export function App() {
  const route = useNavigationStore(selectRoute);
  const language = useSettingsStore(selectUiLanguage);

  // The library's first page is asked for before anything else: a layout effect runs before every
  // view's own loads (passive effects), so the list is first in line at main (decision 0079).
  useLayoutEffect(() => {
    void useLibraryStore.getState().reload();
  }, []);

  useEffect(() => {
    const offs: Array<() => void> = [
      useLibraryStore.getState().init(),
      useTranscriptStore.getState().init(),
      useAnalysisStore.getState().init(),
      followOpenTranscript(),
    ];
    let disposed = false;
    const later = (off: () => void) => (disposed ? off() : offs.push(off));
    void useConnectionStore.getState().init().then(later);
    void useUploadsStore.getState().init().then(later);
    void useSettingsStore
      .getState()
      .load()
      .then(() => {
        const settings = useSettingsStore.getState().settings;
        if (!settings) return;
        usePlayerStore.getState().setRate(settings.playbackRate);
        useUploadsStore.getState().restoreOptions(settings.defaults);
      });
    return () => {
      disposed = true;
      offs.forEach((off) => off());
    };
  }, []);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  return (
    <div className="app">
      <AppHeader />
      <main className="app-main" id="main">
        {route.name === 'library' && <LibraryView />}
        {route.name === 'transcript' && <TranscriptView id={route.id} at={route.at} play={route.play} />}
        {route.name === 'dictionaries' && <DictionariesView />}
        {route.name === 'settings' && <SettingsView />}
      </main>
    </div>
  );
}
