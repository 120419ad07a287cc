// Which view is on screen. A transcript route may carry a moment to jump to (from a search hit).
import { create } from 'zustand';

export type Route =
  | { name: 'library' }
  | { name: 'transcript'; id: string; at?: number; play?: boolean }
  | { name: 'dictionaries' }
  /** `section`: scroll to it (Speech models, from the Transcribe again dialog). */
  | { name: 'settings'; section?: 'speech' };

interface NavigationState {
  route: Route;
  go: (route: Route) => void;
}

export const useNavigationStore = create<NavigationState>()((set) => ({
  route: { name: 'library' },
  go: (route) => set({ route }),
}));

export const selectRoute = (state: NavigationState) => state.route;
export const selectGo = (state: NavigationState) => state.go;
