// What one delegation to a sub-agent costs over a direct tool call (issue 31), CPU time per run on the
// in-memory store and an instant in-process model, so that every microsecond is the platform's:
//   direct:    the user's prompt calls `math.add`, then answers (2 model calls, 1 tool call);
//   delegated: the user's prompt calls `agent.adder`, whose child prompt (its own conversation) calls
//              `math.add` and answers, then the user's prompt answers (4 model calls, 2 tool calls, a child
//              prompt and conversation, the agent-run output, the child's hooks).
// `node --expose-gc bench/delegation.ts [runs]` (default 3,000; alternates the two, three rounds each).
import { createPlatform, createTool, definePlugin, MemoryStore, type ModelMessage } from '@tessera/core';
import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import { z } from 'zod';
import { type Decision, instantModel } from './src/tessera-agent.ts';

const math = definePlugin({
  id: 'math',
  tools: [
    createTool({
      id: 'math.add',
      description: 'Adds two numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      readOnly: true,
      invoke: ({ input }) => ({ sum: input.a + input.b }),
    }),
  ],
});

const adder = defineAgent({
  name: 'adder',
  description: 'Adds numbers.',
  instructions: 'Add the numbers you are given with math.add, then say the sum.',
  tools: ['math.add'],
  readOnly: true,
});

/** The last message's kind: a user's task or a tool's result; the model answers from it alone. */
function lastIs(messages: readonly ModelMessage[]): 'user' | 'result' {
  const last = messages.at(-1);
  return last?.type === 'function_call_output' ? 'result' : 'user';
}

function platformFor(delegate: boolean) {
  const decide = (messages: readonly ModelMessage[]): Decision => {
    if (lastIs(messages) === 'result') return { type: 'text', text: 'The sum is 3.' };
    const task = messages.at(-1)?.type === 'message' ? (messages.at(-1) as { content: string }).content : '';
    // The user's prompt delegates (in the delegated case); the child, given its task, calls the tool.
    if (delegate && task === 'What is 1 + 2?')
      return { type: 'tool_call', callId: 'c1', toolName: 'agent.adder', args: { task: 'Add 1 and 2.' } };
    return { type: 'tool_call', callId: 'c2', toolName: 'math.add', args: { a: 1, b: 2 } };
  };
  return createPlatform({
    plugins: delegate ? [math, agentsPlugin({ agents: [adder] })] : [math],
    model: instantModel(decide),
    store: new MemoryStore(),
  });
}

async function measure(delegate: boolean, runs: number): Promise<number> {
  const platform = platformFor(delegate);
  const once = async () => {
    const conversation = await platform.conversations.create({ userId: 'bench' });
    const prompt = await platform.send({
      conversationId: conversation.id,
      userId: 'bench',
      input: 'What is 1 + 2?',
    });
    if (prompt.state !== 'completed') throw new Error(`the run ended ${prompt.state}`);
    await platform.conversations.delete(conversation.id, 'bench'); // its child conversations go with it
  };
  for (let i = 0; i < Math.min(500, runs); i++) await once();
  globalThis.gc?.();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < runs; i++) await once();
  const cpu = process.cpuUsage(cpu0);
  await platform.close();
  return (cpu.user + cpu.system) / runs;
}

if (import.meta.main) {
  const runs = Number(process.argv[2] ?? 3_000);
  const direct: number[] = [];
  const delegated: number[] = [];
  for (let round = 0; round < 3; round++) {
    direct.push(await measure(false, runs));
    delegated.push(await measure(true, runs));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [d, g] = [median(direct), median(delegated)];
  console.log(
    `direct tool call:      ${d.toFixed(0)} µs of CPU a run (rounds: ${direct.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `through a sub-agent:   ${g.toFixed(0)} µs of CPU a run (rounds: ${delegated.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `one delegation costs:  ${(g - d).toFixed(0)} µs more (${(g / d).toFixed(2)}×), ${runs} runs a round`,
  );
}
