import { useCallback, useMemo, useState } from 'react';
import { type Api, type Conversation, CSRF_HEADERS } from './api.ts';
import { titleOf } from './conversation-groups.ts';
import type { Toast } from './Toasts.tsx';
import type { Route } from './use-hash-route.ts';
import { usePendingDeletes } from './use-pending-deletes.ts';

/** Deletes right away, or — when the page is being left — with a request that outlives the page. */
function deleter(api: Api) {
  return async (id: string, keepalive: boolean) => {
    if (!keepalive) return api.deleteConversation(id);
    await fetch(`/api/conversations/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      keepalive: true,
      credentials: 'same-origin',
      headers: CSRF_HEADERS,
    });
  };
}

/** A conversation the user asked to delete, with the names of its triggers once read. */
export type DeleteRequest = { conversation: Conversation; triggers?: string[] };

/**
 * Deleting a conversation: ask (the confirmation names its triggers), confirm (it leaves the list and the
 * address at once), then a toast offers to undo until the server is asked to delete it.
 */
export function useConversationDeletion({
  api,
  withTriggers,
  refresh,
  selected,
  navigate,
}: {
  api: Api | undefined;
  /** The server runs the triggers plugin: the confirmation lists the triggers deleted with it. */
  withTriggers: boolean;
  /** Reads the conversation list again (after the delete). */
  refresh: () => Promise<void>;
  /** The conversation on screen. */
  selected: string | undefined;
  navigate: (route: Route, replace?: boolean) => void;
}) {
  const [confirming, setConfirming] = useState<DeleteRequest>();
  const deletes = usePendingDeletes(
    useMemo(() => (api ? deleter(api) : async () => {}), [api]),
    useCallback(() => void refresh().catch(() => {}), [refresh]),
  );
  const ask = (conversation: Conversation) => {
    setConfirming({ conversation });
    if (api && withTriggers)
      api.triggers(conversation.id).then(
        (list) =>
          setConfirming((now) =>
            now?.conversation.id === conversation.id
              ? { ...now, triggers: list.map((t) => t.trigger.name) }
              : now,
          ),
        () => {},
      );
  };
  const confirm = (conversation: Conversation) => {
    setConfirming(undefined);
    deletes.schedule({
      id: conversation.id,
      title: titleOf(conversation),
      wasOpen: selected === conversation.id,
    });
    // The address must not keep pointing at it (a reload would open a ghost); Back must not lead to it either.
    if (selected === conversation.id) navigate({ view: 'home' }, true);
  };
  const toasts: Toast[] = [
    ...deletes.pending.map((p) => ({
      id: p.id,
      text: `Deleted “${p.title}”.`,
      action: {
        label: 'Undo',
        run: () => {
          deletes.undo(p.id);
          if (p.wasOpen) navigate({ view: 'conversation', id: p.id });
        },
      },
    })),
    ...(deletes.failure ? [{ id: 'failure', text: deletes.failure }] : []),
  ];
  return {
    confirming,
    /** The conversations deleted but still undoable: hidden from the list and the page. */
    pendingIds: new Set(deletes.pending.map((p) => p.id)),
    ask,
    confirm,
    cancel: () => setConfirming(undefined),
    toasts,
    dismiss: (id: string) => (id === 'failure' ? deletes.clearFailure() : deletes.commit(id)),
  };
}
