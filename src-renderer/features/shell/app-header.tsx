import logoUrl from '../../assets/logo.svg';
import { useT } from '../../i18n/use-t';
import { selectOfflineDetail, selectOnline, selectPending, useConnectionStore } from '../../stores/connection-store';
import { selectGo, selectRoute, useNavigationStore, type Route } from '../../stores/navigation-store';
import { useErrorText } from '../../i18n/error-text';

const TABS: Array<{
  name: Exclude<Route['name'], 'transcript'>;
  label: 'nav.library' | 'nav.dictionaries' | 'nav.settings';
}> = [
  { name: 'library', label: 'nav.library' },
  { name: 'dictionaries', label: 'nav.dictionaries' },
  { name: 'settings', label: 'nav.settings' },
];

export function AppHeader() {
  const t = useT();
  const route = useNavigationStore(selectRoute);
  const go = useNavigationStore(selectGo);
  const current = route.name === 'transcript' ? 'library' : route.name;
  return (
    <header className="app-header">
      <div className="brand" aria-hidden="true">
        <img className="brand-mark" src={logoUrl} alt="" width={28} height={28} /> Kikitori
      </div>
      <nav aria-label={t('nav.label')} className="app-nav">
        {TABS.map((tab) => (
          <button
            key={tab.name}
            type="button"
            className="nav-tab"
            aria-current={current === tab.name ? 'page' : undefined}
            onClick={() => go({ name: tab.name })}
          >
            {t(tab.label)}
          </button>
        ))}
      </nav>
      <ConnectionIndicator />
    </header>
  );
}

export function ConnectionIndicator() {
  const t = useT();
  const online = useConnectionStore(selectOnline);
  const pending = useConnectionStore(selectPending);
  const detail = useConnectionStore(selectOfflineDetail);
  const errorText = useErrorText();
  const refreshing = useConnectionStore((state) => state.refreshing);
  const refresh = useConnectionStore((state) => state.refresh);
  return (
    <div
      className="connection"
      role="status"
      aria-live="polite"
      data-testid="connection-indicator"
      data-online={online}
    >
      <span className={online ? 'dot dot-online' : 'dot dot-offline'} aria-hidden="true" />
      <span title={detail ? errorText(detail) : undefined}>
        {online ? t('connection.online') : t('connection.offline')}
      </span>
      {pending > 0 && <span className="pending">{t('connection.pending', { count: pending })}</span>}
      <button type="button" className="button-quiet" onClick={() => void refresh()} disabled={refreshing}>
        {t('connection.refresh')}
      </button>
    </div>
  );
}
