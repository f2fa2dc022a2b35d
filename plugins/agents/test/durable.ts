import {
  type AnyPlugin,
  type AnyTool,
  createMemoryStore,
  createPlatform,
  createTool,
  type Platform,
  type PluginError,
  type Prompt,
  type Store,
  type ToolOutput,
} from '@tessera/core';
import { ScriptedModel, type ScriptedTurn } from '@tessera/testing';
import { z } from 'zod';
import { type AgentOptions, agentsPlugin } from '../src/index.ts';
import { appPlugin, routed } from './helpers.ts';

// Helpers of the durable nested approval tests: "processes" (platforms, opened, so the plugin resumes
// parents) over one store, and a tool that needs approval.

export const userId = 'ada';

/** A tool that needs approval, and the runs it made. */
export function approvedWork() {
  const runs: string[] = [];
  const tool = createTool({
    id: 'work.do',
    description: 'Does something that needs approval.',
    input: z.object({ what: z.string() }),
    requireApproval: { required: true, reason: 'It changes things.' },
    invoke: ({ input }) => {
      runs.push(input.what);
      return 'done';
    },
  });
  return { tool, runs };
}

export const workerAgent: AgentOptions = {
  name: 'worker',
  description: 'Does the work.',
  instructions: 'Do the work with your tool, then report.',
  tools: ['work.do'],
};

/** The store a platform closes without closing it: processes that share one store come and go. */
export function keepOpen(store: Store): Store {
  return new Proxy(store, {
    get: (target, key) => (key === 'close' ? undefined : Reflect.get(target, key, target)),
  });
}

export type Process = { platform: Platform; model: ScriptedModel; errors: PluginError[] };

/** A process: a platform over `store` with the agents plugin, opened (unless `open: false`). */
export async function processOn(
  store: Store,
  options: {
    agents: AgentOptions[];
    tools: AnyTool[];
    script: Record<string, ScriptedTurn[]>;
    open?: boolean;
    maxRunsPerPrompt?: number;
    sweepEveryMs?: number;
    /** More plugins, after the app's and the agents'. */
    plugins?: AnyPlugin[];
  },
): Promise<Process> {
  const errors: PluginError[] = [];
  const model = new ScriptedModel(routed(options.script));
  const platform = createPlatform({
    plugins: [
      appPlugin(options.tools),
      agentsPlugin({
        agents: options.agents,
        ...(options.maxRunsPerPrompt && { maxRunsPerPrompt: options.maxRunsPerPrompt }),
        ...(options.sweepEveryMs && { sweepEveryMs: options.sweepEveryMs }),
      }),
      ...(options.plugins ?? []),
    ],
    store,
    model,
    onPluginError: (error) => errors.push(error),
  });
  if (options.open !== false) await platform.open();
  return { platform, model, errors };
}

/** A shared in-memory store for several processes. */
export const sharedMemory = () => {
  const store = createMemoryStore();
  return async () => keepOpen(store);
};

/** The call of `toolId` in the prompt. */
export const callOf = (prompt: Prompt, toolId: string): ToolOutput => {
  const call = prompt.output.find((o): o is ToolOutput => o.type === 'tool' && o.toolId === toolId);
  if (!call) throw new Error(`No call of ${toolId} in prompt ${prompt.id}.`);
  return call;
};

/** Counts the events of a type per prompt, on a platform's events (this process's only). */
export function countEvents(platform: Platform, type: string) {
  const counts = new Map<string, number>();
  platform.events.subscribe({ local: true }, (event) => {
    if (event.type === type) counts.set(event.promptId, (counts.get(event.promptId) ?? 0) + 1);
  });
  return counts;
}
