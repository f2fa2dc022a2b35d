// One real prompt with a tool, against OpenAI or a compatible server: `pnpm --filter @tessera/openai smoke`.
// Needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server); OPENAI_MODEL and TESSERA_OPENAI_API=chat optional.
import { createPlatform, createTool, definePlugin } from '@tessera/core';
import { z } from 'zod';
import { createOpenAIProvider } from '../src/index.ts';

if (!process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL) {
  console.log('No OPENAI_API_KEY (or OPENAI_BASE_URL) set: nothing to call. Set one to run the smoke test.');
  process.exit(0);
}
const weather = createTool({
  id: 'weather.get',
  description: 'The current weather for a city.',
  input: z.object({ city: z.string() }),
  invoke: ({ input }) => ({ city: input.city, temperatureC: 18, sky: 'light clouds' }),
});
const platform = createPlatform({
  plugins: [definePlugin({ id: 'weather', tools: [weather] })],
  model: createOpenAIProvider({ api: process.env.TESSERA_OPENAI_API === 'chat' ? 'chat' : 'responses' }),
  models: { normal: process.env.OPENAI_MODEL ?? 'gpt-5-mini' },
});
platform.events.subscribe({}, (event) => {
  if (event.type === 'prompt.text-delta') process.stdout.write(event.delta);
});
const { id } = await platform.conversations.create({ userId: 'smoke' });
const prompt = await platform.send({
  conversationId: id,
  userId: 'smoke',
  input: 'What is the weather in Lisbon? Use the tool.',
});
console.log(`\n\nstate: ${prompt.state}${prompt.stopReason ? ` (${prompt.stopReason.message})` : ''}`);
for (const output of prompt.output) console.log(`- ${output.type}: ${JSON.stringify(output).slice(0, 200)}`);
console.log('usage:', prompt.usage);
process.exit(prompt.state === 'completed' ? 0 : 1);
