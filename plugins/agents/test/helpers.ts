import {
  type AnyTool,
  createTool,
  definePlugin,
  isFinalState,
  type ModelRequest,
  type Platform,
  type Prompt,
} from '@tessera/core';
import { createTestPlatform, type ScriptedReply, type ScriptedTurn } from '@tessera/testing';
import { z } from 'zod';
import { type AgentOptions, agentsPlugin } from '../src/index.ts';

/** The agent a model request is for (by the instructions the plugin gives it), or `parent`. */
export function whoAsks(request: ModelRequest): string {
  return /You are the sub-agent '([^']+)'/.exec(request.instructions)?.[1] ?? 'parent';
}

/**
 * A script whose turns are taken from one queue per agent (and `parent`), by who asks: children that run
 * at the same time each get their own turns, whatever order their calls come in.
 */
export function routed(routes: Record<string, ScriptedTurn[]>): ScriptedTurn[] {
  const queues = new Map(Object.entries(routes).map(([who, turns]) => [who, [...turns]]));
  const total = [...queues.values()].reduce((sum, turns) => sum + turns.length, 0);
  return Array.from({ length: total }, () => (request: ModelRequest): ScriptedReply => {
    const who = whoAsks(request);
    const turn = queues.get(who)?.shift();
    if (!turn) throw new Error(`The script has no turn left for '${who}'.`);
    return typeof turn === 'function' ? turn(request) : turn;
  });
}

/** The requests the model was sent by one agent (or `parent`), in order. */
export const requestsOf = (requests: readonly ModelRequest[], who: string) =>
  requests.filter((request) => whoAsks(request) === who);

/** Resolves once the prompt ended (completed, failed or cancelled), however many approvals it waits for. */
export function ended(platform: Platform, promptId: string, userId: string): Promise<Prompt> {
  return new Promise((resolve, reject) => {
    const unsubscribe = platform.events.subscribe({ promptId }, (event) => {
      if (
        event.type === 'prompt.completed' ||
        event.type === 'prompt.failed' ||
        event.type === 'prompt.cancelled'
      ) {
        unsubscribe();
        platform.getPrompt(promptId, userId).then(resolve, reject);
      }
    });
    platform.getPrompt(promptId, userId).then((prompt) => {
      if (isFinalState(prompt.state)) {
        unsubscribe();
        resolve(prompt);
      }
    }, reject);
  });
}

/** A promise with its resolve, to hand between tools and tests. */
export function latch<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** An app's own plugin: tools the agents may be given, and instructions of its own. */
export function appPlugin(tools: AnyTool[]) {
  return definePlugin({
    id: 'app',
    tools,
    prepare: ({ context }) => {
      context.push({ text: 'APP INSTRUCTIONS: you are the assistant of the app.' });
    },
  });
}

/** A read-only tool that records its calls and answers `answer`. */
export function searchTool(id = 'notes.search', answer = 'The launch is on Tuesday.') {
  const calls: { query: string; promptId: string }[] = [];
  const tool = createTool({
    id,
    description: 'Searches the notes.',
    input: z.object({ query: z.string() }),
    readOnly: true,
    invoke: ({ input, promptId }) => {
      calls.push({ query: input.query, promptId });
      return { found: answer };
    },
  });
  return { tool, calls };
}

/** A platform with the agents plugin and the app's tools, on a routed script. */
export async function setup(options: {
  agents: AgentOptions[];
  tools?: AnyTool[];
  script: Record<string, ScriptedTurn[]>;
  maxDepth?: number;
}) {
  const plugins = [
    appPlugin(options.tools ?? []),
    agentsPlugin({ agents: options.agents, ...(options.maxDepth && { maxDepth: options.maxDepth }) }),
  ];
  return createTestPlatform({ plugins, script: routed(options.script) });
}
