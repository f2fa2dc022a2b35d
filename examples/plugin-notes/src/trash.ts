import { type DependencyContainer, StoreToken } from '@tessera/core';
import type { Note } from './state.ts';

/*
 * Deleted notes go to the conversation's trash, a store record of this plugin's namespace: kept outside the
 * plugin state, which every prompt loads, so that a long history of deletions costs prompts nothing.
 */
const NAMESPACE = 'notes';
const trashId = (conversationId: string) => `trash/${conversationId}`;

/** The notes deleted in a conversation, oldest first: for apps that let users recover them. */
export async function deletedNotes(services: DependencyContainer, conversationId: string): Promise<Note[]> {
  const record = await services.resolve(StoreToken).records.get<Note[]>(NAMESPACE, trashId(conversationId));
  return record?.value ?? [];
}

export async function moveToTrash(services: DependencyContainer, conversationId: string, notes: Note[]) {
  const trash = await deletedNotes(services, conversationId);
  await services.resolve(StoreToken).records.put(NAMESPACE, trashId(conversationId), [...trash, ...notes]);
}

export async function emptyTrash(services: DependencyContainer, conversationId: string) {
  await services.resolve(StoreToken).records.delete(NAMESPACE, trashId(conversationId));
}
