import { useEffect, useState } from 'react';
import type { Api } from './api.ts';
import type { Me } from './ConversationPane.tsx';
import { useLiveConversations } from './use-live-conversations.ts';

/**
 * Once signed in: who the user is (`/api/me`), their conversations and what waits for them, kept live;
 * `error` if that could not be read.
 */
export function useAccount(api: Api | undefined) {
  const [me, setMe] = useState<Me>();
  const [error, setError] = useState<string>();
  const live = useLiveConversations(me ? api : undefined);
  useEffect(() => {
    if (!api) return;
    api
      .me()
      .then(setMe)
      .catch((e: Error) => setError(e.message));
  }, [api]);
  /** Renames a conversation, then reads the list again. */
  const rename = async (id: string, title: string) => {
    if (!api) return;
    await api.renameConversation(id, title);
    await live.refresh();
  };
  return { me, error, ...live, rename };
}
