import { createTool, definePlugin } from '@tessera/core';
import { z } from 'zod';
import type { DemoRule } from './demo-model.ts';

const deleteRecords = createTool({
  id: 'demo.delete_records',
  description: 'Delete records by name (a pretend database, to show approval).',
  input: z.object({ names: z.array(z.string().min(1)).min(1) }),
  requireApproval: ({ input }) => ({
    required: true,
    reason: `This permanently deletes ${input.names.length} record(s): ${input.names.join(', ')}.`,
  }),
  invoke: ({ input }) => ({ deleted: input.names }),
});

const transfer = createTool({
  id: 'demo.transfer',
  description: 'Transfer money (pretend), to show approval that depends on the input.',
  input: z.object({ amount: z.number().positive(), to: z.string().min(1) }),
  requireApproval: ({ input }) => ({
    required: input.amount > 100,
    reason: `Transfers over $100 need your approval: $${input.amount} to ${input.to}.`,
  }),
  invoke: ({ input }) => ({
    transferred: input.amount,
    to: input.to,
    reference: `TX-${Date.now().toString(36).toUpperCase()}`,
  }),
});

/** Tools that exist to show the platform's features without a network. */
export const demoPlugin = definePlugin({ id: 'demo', tools: [deleteRecords, transfer] });

export const demoRules: DemoRule[] = [
  {
    tool: 'demo.delete_records',
    example: '"delete records alpha and beta" (asks for your approval first)',
    match: /\b(delete|remove)\b.*?\brecords?\b\s*(.*)/i,
    args: (_, match) => ({
      names: (match[2] ?? '')
        .split(/,|\band\b/)
        .map((name) => name.trim())
        .filter(Boolean)
        .slice(0, 10)
        .concat(match[2]?.trim() ? [] : ['example']),
    }),
  },
  {
    tool: 'demo.transfer',
    example: '"transfer $50 to Ada" (no approval) or "transfer $500 to Ada" (approval)',
    match: /\b(transfer|send|pay)\b\s*\$?\s*(\d+(?:\.\d+)?)\s*(?:dollars\s*)?(?:to\s+(\w+))?/i,
    args: (_, match) => ({ amount: Number(match[2]), to: match[3] ?? 'Ada' }),
  },
];
