import { useState } from 'react';
import type { Conversation } from './api.ts';
import { PencilIcon } from './icons.tsx';

const titleOf = (c: Conversation) => c.title ?? `Untitled, ${new Date(c.createdAt).toLocaleString()}`;

type Props = {
  conversations: Conversation[];
  selected: string | undefined;
  onSelect(id: string): void;
  onRename(id: string, title: string): Promise<void>;
  onDelete(id: string): Promise<void>;
};

/** The sidebar's conversations: select, rename in place (Enter saves, Escape cancels), delete. */
export function ConversationList({ conversations, selected, onSelect, onRename, onDelete }: Props) {
  const [editing, setEditing] = useState<string>();
  const [draft, setDraft] = useState('');
  const save = async (id: string) => {
    setEditing(undefined);
    const title = draft.trim();
    if (title && title !== conversations.find((c) => c.id === id)?.title) await onRename(id, title);
  };
  return (
    <ul>
      {conversations.map((c) => (
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
                if (e.key === 'Escape') setEditing(undefined);
              }}
            />
          ) : (
            <button
              type="button"
              onClick={() => onSelect(c.id)}
              aria-current={c.id === selected ? 'page' : undefined}
              title={titleOf(c)}
            >
              {titleOf(c)}
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
            onClick={() => void onDelete(c.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
