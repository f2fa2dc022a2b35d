// Tessera's adapter for the optional peer harness, used only when it is present beside the clone as
// ../shared/bench-peers (see bench/README.md); nothing else in the repository needs it. Run the harness with
// Node 24, which imports the workspace's TypeScript sources directly.
import { readFileSync } from 'node:fs';
import { benchAgent } from '../src/tessera-agent.ts';

const version = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')).version;

export const meta = {
  id: 'tessera',
  label: 'Tessera — platform.send (PromptCompletion.run)',
  versions: () => ({
    '@tessera/core': version('../../packages/core/package.json'),
    zod: version('../node_modules/zod/package.json'),
  }),
  notes: [
    'Each run is a new conversation (in-memory store) whose prior prompts are the shared, frozen history, built once in createRunner.',
    'Every run goes through the whole platform: prepare(), projection, validation, the record (store writes), events.',
  ],
};

export async function createRunner(ctx) {
  const agent = benchAgent({
    tools: ctx.tools,
    history: ctx.history,
    system: ctx.system,
    decide: (messages) =>
      ctx.model.decide(
        ctx.countRoundsDone(
          messages,
          (m) => m.type === 'function_call_output',
          (m) => m.type === 'message' && m.role === 'user',
        ),
      ),
  });
  return { run: () => agent.run(ctx.prompt) };
}
