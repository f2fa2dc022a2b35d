import { createContext, useContext } from 'react';

/** The names of the conversation's triggers by id: a fired prompt is labelled with its trigger's name. */
export const TriggerNames = createContext<ReadonlyMap<string, string>>(new Map());

/** The name of the trigger with this id, if the conversation has it (a deleted one has none). */
export function useTriggerName(id: string | undefined): string | undefined {
  const names = useContext(TriggerNames);
  return id === undefined ? undefined : names.get(id);
}
