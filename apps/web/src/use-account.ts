import { useCallback, useEffect, useState } from 'react';
import type { Api, Conversation } from './api.ts';
import type { Me } from './ConversationPane.tsx';

/** Once signed in: who the user is (`/api/me`) and their conversations; `error` if that could not be read. */
export function useAccount(api: Api | undefined) {
  const [me, setMe] = useState<Me>();
  const [error, setError] = useState<string>();
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const refresh = useCallback(async () => {
    if (!api) return;
    setConversations(await api.conversations());
  }, [api]);
  useEffect(() => {
    if (!api) return;
    api
      .me()
      .then(setMe)
      .then(refresh)
      .catch((e: Error) => setError(e.message));
  }, [api, refresh]);
  /** Renames a conversation, then reads the list again. */
  const rename = async (id: string, title: string) => {
    if (!api) return;
    await api.renameConversation(id, title);
    await refresh();
  };
  return { me, error, conversations, refresh, rename };
}
