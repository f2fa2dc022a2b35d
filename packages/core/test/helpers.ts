import { z } from 'zod';
import { createTool, definePlugin } from '../src/index.ts';

/** A plugin with the tools most loop tests need, and a log of what actually ran. */
export function toolbox() {
  const ran: { tool: string; input: unknown }[] = [];
  const echo = createTool({
    id: 'demo.echo',
    description: 'Echo the text back.',
    input: z.object({ text: z.string() }),
    readOnly: true,
    invoke: ({ input }) => {
      ran.push({ tool: 'demo.echo', input });
      return { echoed: input.text };
    },
  });
  const remove = createTool({
    id: 'demo.delete',
    description: 'Delete a record.',
    input: z.object({ id: z.string() }),
    requireApproval: { required: true, reason: 'This permanently deletes data.' },
    invoke: ({ input }) => {
      ran.push({ tool: 'demo.delete', input });
      return { deleted: input.id };
    },
  });
  const pay = createTool({
    id: 'demo.pay',
    description: 'Send money.',
    input: z.object({ amount: z.number().positive() }),
    requireApproval: ({ input }) => ({
      required: input.amount > 100,
      reason: `Sending $${input.amount} requires approval.`,
    }),
    invoke: ({ input }) => {
      ran.push({ tool: 'demo.pay', input });
      return { sent: input.amount };
    },
  });
  const fail = createTool({
    id: 'demo.fail',
    description: 'Always fails.',
    input: z.object({}),
    invoke: () => {
      ran.push({ tool: 'demo.fail', input: {} });
      throw new Error('the disk is on fire');
    },
  });
  const plugin = definePlugin({ id: 'demo', tools: [echo, remove, pay, fail] });
  return { plugin, ran, tools: { echo, remove, pay, fail } };
}

/** A tool that waits until the test lets it finish, so messages can be sent while a prompt runs. */
export function gate() {
  let open: () => void = () => {};
  let entered: () => void = () => {};
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const released = new Promise<void>((resolve) => {
    open = resolve;
  });
  const plugin = definePlugin({
    id: 'gate',
    tools: [
      createTool({
        id: 'gate.wait',
        description: 'Waits.',
        input: z.object({}),
        invoke: async () => {
          entered();
          await released;
          return 'opened';
        },
      }),
    ],
  });
  return { plugin, inside, open };
}
