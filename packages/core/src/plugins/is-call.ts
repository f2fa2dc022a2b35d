import type { z } from 'zod';
import type { AnyTool } from '../tools/create-tool.ts';
import type { ToolCallView } from './hooks.ts';

/** A call of one tool, as hooks see it: its `input` typed by the tool's schema. */
export type CallOf<TTool extends AnyTool> = ToolCallView & { input: z.output<TTool['input']> };

/**
 * Whether a call that a hook or permission policy sees is a call of `tool` (one made by `createTool`): then
 * its `input` is typed by the tool's schema, with no cast. Hooks see input the schema has validated (and
 * earlier hooks have edited, validated again), so the type holds for every call of that tool id.
 *
 * @example
 * ```ts
 * beforeToolCall: ({ call }) => {
 *   if (isCall(call, send) && call.input.amount > 1000) return { requireApproval: 'A large payment.' };
 * },
 * ```
 */
export const isCall = <TTool extends AnyTool>(call: ToolCallView, tool: TTool): call is CallOf<TTool> =>
  call.toolId === tool.id;
