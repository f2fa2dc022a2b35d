import { createTool, definePlugin } from '@tessera/core';
import { z } from 'zod';

/** The benches' plugin: one read-only tool, as the peers server benchmark's agent has. */
export const echoPlugin = definePlugin({
  id: 'bench',
  tools: [
    createTool({
      id: 'bench.echo',
      description: 'Echo.',
      input: z.object({ text: z.string() }),
      readOnly: true,
      invoke: ({ input }) => ({ echoed: input.text }),
    }),
  ],
});
