// Tessera's adapter for the optional peer harness, a separate project (see bench/README.md); nothing else in
// the repository needs it. Run the harness with Node 24, which imports the workspace's TypeScript sources.
import { readFileSync } from 'node:fs';
import module from 'node:module';

// Here Tessera runs from its TypeScript sources, which Node type-strips at every start; the published package
// is built JavaScript. Node's compile cache (in the OS temp dir) keeps the stripped and compiled modules, so
// from the second process on the import costs what importing JavaScript does, as for the other libraries.
module.enableCompileCache?.();
const { benchAgent } = await import('../src/tessera-agent.ts');

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
    "The fake model is a ModelProvider whose streamBatches() gives each answer as one batch of events (a call or the text, usage, finish), as pi's fake model pushes one done event: no per-token deltas.",
    "The adapter turns on Node's compile cache (module.enableCompileCache()) before importing Tessera's TypeScript sources: the published package is JavaScript.",
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
