import { createInterface } from 'node:readline/promises';
import { createPlatform, type Prompt, type ToolOutput } from '@tessera/core';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { notesPlugin } from './notes-plugin.ts';

// A terminal demo until the server app exists: the model is scripted, so it runs offline and the same way
// every time; everything else (plugin, loop, approval, record, events) is the real platform.
const model = new ScriptedModel(
  [
    callTool('notes.add', { text: 'Buy milk' }),
    reply('Saved your note "Buy milk".'),
    callTool('notes.clear'),
    reply(['All ', 'your notes ', 'are deleted.']),
  ],
  { label: 'scripted demo model' },
);
const platform = createPlatform({ plugins: [notesPlugin], model });
const userId = 'demo-user';

platform.events.subscribe({}, (event) => {
  switch (event.type) {
    case 'prompt.text-delta':
      process.stdout.write(event.delta);
      break;
    case 'prompt.output':
      if (event.output.type === 'tool')
        console.log(`  [tool] ${event.output.toolId} ${JSON.stringify(event.output.input)}`);
      if (event.output.type === 'text') process.stdout.write('\n');
      break;
    case 'prompt.output-updated':
      if (event.output.type === 'tool' && event.output.result) {
        console.log(
          `  [tool] ${event.output.toolId} → ${event.output.result.type} ${JSON.stringify(event.output.result)}`,
        );
      }
      break;
    case 'prompt.approval-requested':
      console.log(`  [approval needed] ${event.toolId}: ${event.reason}`);
      break;
  }
});

async function ask(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) {
    console.log(`${question} yes (approved automatically: no terminal attached)`);
    return true;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(`${question} [y/N] `);
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}

async function turn(conversationId: string, input: string): Promise<Prompt> {
  console.log(`\nyou> ${input}`);
  let prompt = await platform.send({ conversationId, userId, input });
  while (prompt.state === 'waiting_for_approval') {
    const pending = prompt.output.find(
      (o): o is ToolOutput => o.type === 'tool' && o.result?.type === 'pending',
    )!;
    prompt = (await ask(`Approve ${pending.toolId}?`))
      ? await platform.approve(pending.id, { userId })
      : await platform.reject(pending.id, { userId, reason: 'The user said no.' });
  }
  console.log(
    `  [prompt ${prompt.state}; ${prompt.usage.modelCalls} model calls; output: ${prompt.output.map((o) => o.type).join(', ')}]`,
  );
  return prompt;
}

console.log(`Tessera terminal demo (model: ${model.label})`);
const conversation = await platform.conversations.create({ userId });
await turn(conversation.id, 'Note that I need to buy milk.');
await turn(conversation.id, 'Clear all my notes.');
await platform.close();
