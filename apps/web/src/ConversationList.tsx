import { useId, useState } from 'react';
import type { Conversation, SearchPage } from './api.ts';
import { oneBranchEach } from './branches.ts';
import { filterConversations, groupByDate, titleOf } from './conversation-groups.ts';
import { PencilIcon, TrashIcon } from './icons.tsx';
import { SearchResults } from './SearchResults.tsx';

type Props = {
  conversations: Conversation[];
  selected: string | undefined;
  /** The conversations with a call to approve or a pause to decide: each shows a badge. */
  waiting: ReadonlySet<string>;
  onSelect(id: string): void;
  onRename(id: string, title: string): Promise<void>;
  /** Asks to delete (the app confirms and offers an undo). */
  onDelete(conversation: Conversation): void;
  /** The server's full-text search: with it, a query shows its hits instead of the filtered titles. */
  search?: (q: string, cursor?: string) => Promise<SearchPage>;
};

/**
 * The sidebar's conversations: a search over titles (and, with `search`, the server's hits in messages and
 * answers below them), grouped by the day of their last activity (Today,
 * Yesterday, Previous 7 days, Older); select, rename in place (Enter saves, Escape cancels), delete. A
 * conversation waiting for the user (an approval, a pause) is marked "Waiting".
 */
export function ConversationList({
  conversations,
  selected,
  waiting,
  onSelect,
  onRename,
  onDelete,
  search,
}: Props) {
  const [editing, setEditing] = useState<string>();
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const id = useId();
  const save = async (conversationId: string) => {
    setEditing(undefined);
    const title = draft.trim();
    if (title && title !== conversations.find((c) => c.id === conversationId)?.title)
      await onRename(conversationId, title);
  };
  const searching = search !== undefined && query.trim() !== '';
  // Branches of one conversation show as one entry: the one open, else the one changed last.
  const matching = filterConversations(oneBranchEach(conversations, selected), query);
  const groups = groupByDate(matching);
  return (
    <div className="conversation-list">
      {conversations.length > 0 && (
        <input
          type="search"
          className="search"
          aria-label="Search conversations"
          aria-keyshortcuts="Control+K Meta+K"
          title="Ctrl+K"
          placeholder="Search conversations"
          maxLength={200}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && query) {
              e.stopPropagation(); // clear first; the next Escape closes the drawer
              setQuery('');
            }
          }}
        />
      )}
      {!searching && query && groups.length === 0 && (
        <p className="list-empty">No conversation matches “{query}”.</p>
      )}
      {!query && conversations.length === 0 && <p className="list-empty">No conversations yet.</p>}
      {groups.map((group, g) => (
        <section key={group.label} aria-labelledby={`${id}-${g}`}>
          <h2 id={`${id}-${g}`} className="group-label">
            {group.label}
          </h2>
          <ul>
            {group.conversations.map((c) => (
              <li key={c.id} className={c.id === selected ? 'selected' : ''}>
                {editing === c.id ? (
                  <input
                    className="rename"
                    aria-label="Conversation title"
                    value={draft}
                    maxLength={200}
                    // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
                    autoFocus
                    onChange={(e) => setDraft(e.target.value)}
                    onBlur={() => void save(c.id)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') void save(c.id);
                      if (e.key === 'Escape') {
                        e.stopPropagation();
                        setEditing(undefined);
                      }
                    }}
                  />
                ) : (
                  <button
                    type="button"
                    onClick={() => onSelect(c.id)}
                    aria-current={c.id === selected ? 'page' : undefined}
                    title={titleOf(c)}
                  >
                    {/* Named "<title> Waiting for you" by its content: what shows is all in the name. */}
                    <span className="conversation-title">{titleOf(c)}</span>
                    {waiting.has(c.id) && (
                      <span className="waiting-badge">
                        Waiting<span className="visually-hidden"> for you</span>
                      </span>
                    )}
                  </button>
                )}
                <button
                  type="button"
                  className="icon"
                  aria-label="Rename conversation"
                  onClick={() => {
                    setDraft(c.title ?? '');
                    setEditing(c.id);
                  }}
                >
                  <PencilIcon />
                </button>
                <button
                  type="button"
                  className="icon"
                  aria-label="Delete conversation"
                  onClick={() => onDelete(c)}
                >
                  <TrashIcon />
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {searching && (
        <SearchResults
          query={query.trim()}
          search={search}
          shown={new Set(matching.map((c) => c.id))}
          onSelect={onSelect}
        />
      )}
    </div>
  );
}
