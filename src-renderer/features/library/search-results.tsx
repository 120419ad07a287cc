// Search hits; each opens its transcription at the moment it was said.
import { useT } from '../../i18n/use-t';
import { formatClock, snippetParts } from '../../lib/format';
import { useLibraryStore } from '../../stores/library-store';
import { useNavigationStore } from '../../stores/navigation-store';
import { ErrorText } from '../../lib/error-details';

export function SearchResults() {
  const t = useT();
  const hits = useLibraryStore((state) => state.hits);
  const query = useLibraryStore((state) => state.query);
  const searching = useLibraryStore((state) => state.searching);
  const error = useLibraryStore((state) => state.searchError);
  const go = useNavigationStore((state) => state.go);

  if (error)
    return (
      <div className="error-banner" role="alert">
        <ErrorText error={error} />
      </div>
    );
  if (!searching && hits.length === 0)
    return <p className="empty">{t('library.search.none', { query: query.trim() })}</p>;
  return (
    <section
      className="search-results"
      aria-label={t('library.search.count', { count: hits.length })}
      aria-busy={searching}
    >
      <p className="count" aria-live="polite">
        {t('library.search.count', { count: hits.length })}
      </p>
      <ul>
        {hits.map((hit, index) => {
          const time = formatClock(hit.start ?? 0);
          return (
            <li key={`${hit.transcriptionId}-${hit.kind}-${hit.segmentId}-${index}`}>
              <button
                type="button"
                className="search-hit"
                data-testid="search-hit"
                aria-label={t('library.search.open', { name: hit.transcriptionName, time })}
                onClick={() => go({ name: 'transcript', id: hit.transcriptionId, at: hit.start ?? undefined })}
              >
                <span className="hit-head">
                  <strong>{hit.transcriptionName}</strong>
                  <span className="badge">{t(`library.search.kind.${hit.kind}`)}</span>
                  {hit.start !== null && <span className="time">{time}</span>}
                </span>
                <span className="hit-snippet">
                  {snippetParts(hit.snippet).map((part, i) =>
                    i % 2 === 1 ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>,
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
