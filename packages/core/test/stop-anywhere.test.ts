import {
  assertWellFormed,
  callTools,
  ProcessStopped,
  pendingCall,
  reply,
  ScriptedModel,
  stoppingStore,
} from '@tessera/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';
import {
  createPlatform,
  createTool,
  defineOutput,
  definePlugin,
  MemoryStore,
  type OutputOf,
  type Prompt,
  type PromptOutput,
  promptsToMessages,
  type Store,
  type ToolOutput,
} from '../src/index.ts';

const card = defineOutput({
  type: 'x-weather.card',
  fields: { text: z.string() },
  project: { summary: (c) => `[card: ${c.text}]` },
});
declare module '../src/index.ts' {
  interface PromptOutputTypes {
    'x-weather.card': OutputOf<typeof card>;
  }
}

const userId = 'ada';
const PROMPT = 'prm_weather';

/**
 * Three tools that emit: one read-only (run again after a crash), one with side effects (never run twice),
 * one that needs approval (never run without it). `ran` logs every run, across processes.
 */
function weatherPlugin(ran: string[]) {
  return definePlugin({
    id: 'x-weather',
    outputs: [card],
    tools: [
      createTool({
        id: 'weather.forecast',
        description: 'The forecast, as cards.',
        input: z.object({ city: z.string() }),
        readOnly: true,
        invoke: async ({ input, emit, update }) => {
          ran.push('forecast');
          const now = await emit({ type: 'x-weather.card', text: `${input.city}: loading` });
          await emit({ type: 'x-weather.card', text: `${input.city}: chart` });
          await update(now, { type: 'x-weather.card', text: `${input.city}: 12 °C` });
          return { now: 12 };
        },
      }),
      createTool({
        id: 'weather.alert',
        description: 'Sends an alert (a side effect).',
        input: z.object({ city: z.string() }),
        invoke: async ({ input, emit }) => {
          ran.push('alert');
          await emit({ type: 'x-weather.card', text: `alert sent for ${input.city}` });
          return { sent: true };
        },
      }),
      createTool({
        id: 'weather.subscribe',
        description: 'Subscribes to daily forecasts (needs approval).',
        input: z.object({ city: z.string() }),
        requireApproval: { required: true, reason: 'This sends you an email every day.' },
        invoke: async ({ input, emit }) => {
          ran.push('subscribe');
          await emit({ type: 'x-weather.card', text: `subscribed to ${input.city}` });
          return { subscribed: true };
        },
      }),
    ],
  });
}

/** Calls the three tools in one batch while the prompt has no call yet; answers once it has. */
const model = () =>
  new ScriptedModel(
    Array.from(
      { length: 10 },
      () => (request: { messages: readonly { type: string }[] }) =>
        request.messages.some((m) => m.type === 'function_call')
          ? reply('Done.')
          : callTools(
              { name: 'weather.forecast', args: { city: 'Oslo' } },
              { name: 'weather.alert', args: { city: 'Oslo' } },
              { name: 'weather.subscribe', args: { city: 'Oslo' } },
            ),
    ),
  );

/** What a user does: send, then approve the pending call. */
async function use(store: Store, conversationId: string, ran: string[]): Promise<void> {
  const platform = createPlatform({ plugins: [weatherPlugin(ran)], store, model: model() });
  const paused = await platform.send({ conversationId, userId, input: 'Weather in Oslo?', promptId: PROMPT });
  await platform.approve(pendingCall(paused).id, { userId });
}

const calls = (prompt: Prompt) => prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
const emittedBy = (prompt: Prompt, call: ToolOutput | undefined) =>
  prompt.output.filter((o) => o.toolCallId !== undefined && o.toolCallId === call?.id) as PromptOutput[];

it('stopped after any write, a prompt with emitting tools recovers: nothing doubled, nothing run twice or unapproved', async () => {
  // A run that is never stopped counts the writes to stop after.
  const full = stoppingStore(new MemoryStore());
  const conversation = await createPlatform({ model: model(), store: full.store }).conversations.create({
    userId,
  });
  await use(full.store, conversation.id, []);
  const total = full.writes();
  expect(total).toBeGreaterThan(15);

  let rerunAfterEmitting = 0;
  for (let limit = 2; limit <= total; limit++) {
    const inner = new MemoryStore();
    const stopping = stoppingStore(inner, limit);
    const ran: string[] = [];
    await stopping.store.conversations.create({ ...conversation });
    await use(stopping.store, conversation.id, ran).catch((error: unknown) => {
      if (!(error instanceof ProcessStopped)) throw error;
    });
    const left = (await inner.prompts.get(PROMPT)) as Prompt;
    const leftForecast = calls(left).find((c) => c.toolId === 'weather.forecast');
    const cutOff = leftForecast?.startedAt && !leftForecast.result ? emittedBy(left, leftForecast) : [];
    if (cutOff.length > 0) rerunAfterEmitting++;

    // A new process over what the stopped one left: it recovers, and the user approves if still asked.
    const platform = createPlatform({ plugins: [weatherPlugin(ran)], store: inner, model: model() });
    const removed: string[] = [];
    platform.events.subscribe({ promptId: PROMPT }, (event) => {
      if (event.type === 'prompt.output-removed') removed.push(event.outputId);
    });
    await Promise.all((await platform.recover()).map((run) => run.done));
    let prompt = (await inner.prompts.get(PROMPT)) as Prompt;
    if (prompt.state === 'waiting_for_approval') {
      prompt = await platform.approve(pendingCall(prompt).id, { userId });
    }

    const at = `stopped after write ${limit} of ${total}`;
    expect(prompt.state, at).toBe('completed');
    for (const call of calls(prompt)) expect(call.result?.type, at).toMatch(/^(success|error)$/);
    assertWellFormed(promptsToMessages([prompt], { outputs: platform.outputs }));
    expect(new Set(prompt.output.map((o) => o.id)).size, at).toBe(prompt.output.length);

    const [forecast, alert, subscribe] = ['forecast', 'alert', 'subscribe'].map((name) =>
      calls(prompt).find((c) => c.toolId === `weather.${name}`),
    );
    // The read-only call ran (again) to its end, and shows what one run emits: once.
    if (forecast) {
      expect(forecast.result?.type, at).toBe('success');
      expect(
        emittedBy(prompt, forecast).map((o) => (o as OutputOf<typeof card>).text),
        at,
      ).toEqual(['Oslo: 12 °C', 'Oslo: chart']);
    }
    // What the cut-off run had emitted was taken out, and subscribers were told.
    expect(removed, at).toEqual(cutOff.map((o) => o.id));
    // The call with side effects ran at most once; one cut off keeps what it emitted and says so.
    expect(ran.filter((r) => r === 'alert').length, at).toBeLessThanOrEqual(1);
    if (alert?.result?.type === 'success') expect(emittedBy(prompt, alert), at).toHaveLength(1);
    else expect(emittedBy(prompt, alert).length, at).toBeLessThanOrEqual(1);
    // The call that needs approval ran only once approved, and at most once.
    const subscribed = ran.filter((r) => r === 'subscribe').length;
    expect(subscribed, at).toBeLessThanOrEqual(1);
    if (subscribed > 0) expect(subscribe?.approval?.decision, at).toBe('approved');
    if (subscribe?.result?.type === 'success') expect(emittedBy(prompt, subscribe), at).toHaveLength(1);
  }
  // Some stops left the read-only call started with outputs emitted: the case that could double.
  expect(rerunAfterEmitting).toBeGreaterThan(0);
});
