import { createContext, useContext } from 'react';
import type { BudgetRaise } from './outputs/budget-raise.ts';

/** What cards deep in a conversation need from the server to decide pauses and edit arguments. */
export type LoopControl = {
  /** The JSON Schema of a pending call's tool's arguments, when the server knows it. */
  toolSchema: (toolCallId: string) => Promise<unknown>;
  /** Decides a pause; past a budget, `continue` comes with the larger `budgets`. */
  resumePause: (pauseId: string, choice: 'continue' | 'stop', budgets?: BudgetRaise) => Promise<void>;
};

export const LoopControlContext = createContext<LoopControl | undefined>(undefined);

/** The conversation's loop control; undefined outside one (a card rendered on its own decides nothing). */
export const useLoopControl = (): LoopControl | undefined => useContext(LoopControlContext);
