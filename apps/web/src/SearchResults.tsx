import { type ReactNode, useEffect, useId, useState } from 'react';
import type { SearchHit, SearchPage } from './api.ts';

/** The snippet's text with its highlight ranges as <mark>: text nodes only, never markup from the server. */
export function Highlighted({ snippet }: { snippet: SearchHit['snippet'] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start = 0, end = 0] of [...snippet.highlights].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0))) {
    if (start < at || end <= start || end > snippet.text.length) continue; // ignores ranges that do not fit
    if (start > at) parts.push(snippet.text.slice(at, start));
    parts.push(<mark key={start}>{snippet.text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < snippet.text.length) parts.push(snippet.text.slice(at));
  return <>{parts}</>;
}

const FIELD = { title: 'Title', input: 'You', output: 'Answer' } as const;
const DEBOUNCE_MS = 250;

/**
 * The server's search for `query` (debounced as it is typed): hits with their highlighted snippets, a page at a
 * time ("More results"); a hit opens its conversation. Title hits of conversations the list already shows
 * (`shown`) are left out; with neither, it says nothing matches.
 */
export function SearchResults({
  query,
  search,
  shown,
  onSelect,
}: {
  query: string;
  search: (q: string, cursor?: string) => Promise<SearchPage>;
  /** The conversations the list shows for the query (their titles match). */
  shown: ReadonlySet<string>;
  onSelect(id: string): void;
}) {
  const headingId = useId();
  const [hits, setHits] = useState<SearchHit[]>();
  const [next, setNext] = useState<string>();
  const [error, setError] = useState<string>();
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => {
    let current = true;
    setHits(undefined);
    setError(undefined);
    const timer = setTimeout(() => {
      search(query).then(
        (page) => {
          if (!current) return;
          setHits(page.items);
          setNext(page.nextCursor);
        },
        (e: unknown) => current && setError(e instanceof Error ? e.message : String(e)),
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, search]);
  const more = async () => {
    if (!next) return;
    setLoadingMore(true);
    try {
      const page = await search(query, next);
      setHits((before) => [...(before ?? []), ...page.items]);
      setNext(page.nextCursor);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoadingMore(false);
    }
  };
  if (error)
    return (
      <p className="list-empty" role="alert">
        {error}
      </p>
    );
  if (!hits) return shown.size > 0 ? null : <p className="list-empty">Searching…</p>;
  const listed = hits.filter((hit) => !(hit.field === 'title' && shown.has(hit.conversationId)));
  if (listed.length === 0 && !next) {
    return shown.size > 0 ? null : <p className="list-empty">No conversation matches “{query}”.</p>;
  }
  return (
    <section aria-labelledby={headingId} className="search-results">
      <h2 id={headingId} className="group-label">
        In messages and answers
      </h2>
      <ul>
        {listed.map((hit) => (
          <li key={`${hit.conversationId} ${hit.promptId ?? ''} ${hit.field} ${hit.snippet.text}`}>
            <button type="button" className="search-hit" onClick={() => onSelect(hit.conversationId)}>
              <span className="conversation-title">{hit.title ?? 'Untitled'}</span>
              <span className="search-snippet">
                <span className="search-field">{FIELD[hit.field]}: </span>
                <Highlighted snippet={hit.snippet} />
              </span>
            </button>
          </li>
        ))}
      </ul>
      {next && (
        <button type="button" className="search-more" disabled={loadingMore} onClick={() => void more()}>
          More results
        </button>
      )}
    </section>
  );
}
