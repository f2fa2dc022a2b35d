import { createPlatform, createTool, definePlugin, type ModelProvider } from '@tessera/core';
import { z } from 'zod';

/**
 * The tool of the recorded conversations (fantasy's provider tests): `weather`, "Get weather information for
 * a location", whose result the recording client gave as "40 C". Here it needs the user's approval.
 */
export const weatherTool = () => {
  const calls: string[] = [];
  const tool = createTool({
    id: 'weather',
    description: 'Get weather information for a location',
    input: z.object({ location: z.string().describe('the city') }),
    requireApproval: { required: true, reason: 'Looks up the weather' },
    invoke: ({ input }) => {
      calls.push(input.location);
      return '40 C';
    },
  });
  return { tool, calls };
};

/** A platform with the weather tool and the recordings' system prompt. */
export function weatherPlatform(model: ModelProvider) {
  const { tool, calls } = weatherTool();
  const platform = createPlatform({
    plugins: [definePlugin({ id: 'weather', tools: [tool] })],
    instructions: 'You are a helpful assistant',
    model,
  });
  return { platform, calls };
}
