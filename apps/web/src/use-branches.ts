import { useEffect, useMemo, useState } from 'react';
import type { Api, Conversation } from './api.ts';
import { branchesByTurn } from './branches.ts';
import { readModelClass } from './model-class.ts';
import { useHashRoute } from './use-hash-route.ts';

/** A turn's "‹ 2/3 ›": the branch shown among those made there, and how to show another. */
export type BranchSwitch = { index: number; count: number; onShow: (index: number) => void };

/**
 * Branches of the open conversation. `resendAt(promptId)` is how edit, retry and regenerate send: a fork
 * sharing the prompts before that turn gets the new message and opens in place of this conversation (the
 * replaced turn stays in its own branch, out of the model's context); a send that fails takes its empty fork
 * with it. `switchAt(promptId)` is the turn's switcher, when it has branches: its lineage is read (GET
 * …/branches) when the conversation opens and whenever `version` changes (a prompt added).
 */
export function useBranches(api: Api, conversationId: string, version: number, onSent: () => void) {
  const { navigate } = useHashRoute();
  const [lineage, setLineage] = useState<Conversation[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version says when the lineage may have changed
  useEffect(() => {
    let current = true;
    api.branches(conversationId).then(
      (items) => {
        if (current) setLineage(items);
      },
      () => {}, // no switcher rather than an error: the record itself still shows
    );
    return () => {
      current = false;
    };
  }, [api, conversationId, version]);

  const byPrompt = useMemo(() => {
    const current = lineage.find((c) => c.id === conversationId);
    if (!current) return new Map<string, BranchSwitch>();
    const turns = [...branchesByTurn(current, lineage)].map(([position, turn]): [string, BranchSwitch] => [
      current.promptIds[position]!,
      {
        index: turn.index,
        count: turn.conversationIds.length,
        // Flipping swaps the address: Back leaves the conversation rather than flipping back.
        onShow: (index) => navigate({ view: 'conversation', id: turn.conversationIds[index]! }, true),
      },
    ]);
    return new Map(turns);
  }, [lineage, conversationId, navigate]);

  const resendAt = (promptId: string) => async (input: string, files: File[]) => {
    const fork = await api.fork(conversationId, promptId);
    try {
      await api.send(fork.id, input, files, { model: readModelClass() });
    } catch (error) {
      await api.deleteConversation(fork.id).catch(() => {});
      throw error;
    }
    onSent();
    navigate({ view: 'conversation', id: fork.id });
  };
  return { resendAt, switchAt: (promptId: string) => byPrompt.get(promptId) };
}
