import { definePlugin, definePluginFactory } from '@tessera/core';
import { compactedHistory } from './compacted-history.ts';
import { CompactionOptions } from './compaction-options.ts';
import { compactionOutput } from './compaction-output.ts';
import { compactHistory } from './summarize.ts';

/**
 * Summarizes the older prompts of a long conversation instead of leaving them out: once the context passes
 * `threshold` of the model's context window, the model writes a summary (a `compaction` output on the prompt
 * that needed the room) that it reads in their place from then on; the record keeps every prompt. Built on
 * core's public hooks only: `beforeFirstModelCall` decides and summarizes, `historyView` sends the summary
 * in place of the prompts it covers (core's history budget then applies to what is left).
 */
export const compactionPlugin = definePluginFactory({
  id: 'compaction',
  options: CompactionOptions,
  create: (options) =>
    definePlugin({
      id: 'compaction',
      outputs: [compactionOutput],
      hooks: {
        beforeFirstModelCall: (context) => compactHistory(options, context),
        historyView: ({ history, prompt }) => {
          const view = compactedHistory(history, prompt);
          return view.prompts === history && view.before.length === 0 ? undefined : view;
        },
      },
    }),
});
