import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTool, definePlugin, type ToolOutput } from '../src/index.ts';

/** A tool that reads its signal only after `readAfterMs`, whatever happened meanwhile. */
function lateReader(timeoutMs: number, readAfterMs: number) {
  const seen: { aborted: boolean; reason: unknown }[] = [];
  const tool = createTool({
    id: 'x.late',
    description: 'Looks at its signal late.',
    input: z.object({}),
    timeoutMs,
    invoke: async (input) => {
      await new Promise((resolve) => setTimeout(resolve, readAfterMs));
      const { signal } = input;
      seen.push({ aborted: signal.aborted, reason: signal.reason });
      return { done: true };
    },
  });
  return { plugin: definePlugin({ id: 'x', tools: [tool] }), seen };
}

describe("a tool's signal", () => {
  it('is aborted, with the reason, for a tool that first reads it after its timeout', async () => {
    const { plugin, seen } = lateReader(10, 60);
    const t = await createTestPlatform({ plugins: [plugin], script: [callTool('x.late'), reply('Done.')] });
    const prompt = await t.send('go');
    const call = prompt.output.find((o) => o.type === 'tool') as ToolOutput;
    expect(call.result).toMatchObject({ type: 'error', error: { code: 'timeout' } });
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]!.aborted).toBe(true);
    expect(String(seen[0]!.reason)).toContain('timeout');
  });

  it('is not aborted for a tool that reads it in time', async () => {
    const { plugin, seen } = lateReader(5_000, 1);
    const t = await createTestPlatform({ plugins: [plugin], script: [callTool('x.late'), reply('Done.')] });
    const prompt = await t.send('go');
    expect((prompt.output.find((o) => o.type === 'tool') as ToolOutput).result).toEqual({
      type: 'success',
      output: { done: true },
    });
    expect(seen).toEqual([{ aborted: false, reason: undefined }]);
  });
});
