// Whether a library panel above the list (the uploads, the speech model offer) shows only its summary
// line. The user's choice is kept in settings; until there is one, a low window collapses the panel so
// the list keeps several rows (issue 27 item 8, decision 0074).
import { useState, useSyncExternalStore } from 'react';
import type { CollapsedPanels } from '../../src-shared/ipc-contract';
import { useSettingsStore } from '../stores/settings-store';

/** The same height as the low-window rules in styles.css. */
export const LOW_WINDOW = '(max-height: 760px)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(LOW_WINDOW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isLowWindow = () => window.matchMedia(LOW_WINDOW).matches;

export function useCollapsedPanel(panel: keyof CollapsedPanels): [boolean, (collapsed: boolean) => void] {
  const low = useSyncExternalStore(subscribe, isLowWindow);
  const kept = useSettingsStore((state) => state.settings?.collapsedPanels?.[panel]);
  // Shown at once, whether or not main has the settings yet; kept for the next start.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const choose = (collapsed: boolean) => {
    setChosen(collapsed);
    const settings = useSettingsStore.getState().settings;
    if (settings)
      void useSettingsStore.getState().update({ collapsedPanels: { ...settings.collapsedPanels, [panel]: collapsed } });
  };
  return [chosen ?? kept ?? low, choose];
}
