// @vitest-environment node
// End-to-end: a prompt's run report (figures, the timeline of its model and tool calls, the context meter) and
// the marker where a long conversation was summarized, in Debian's Chromium against the real server with a
// scripted model whose calls take scripted time and report usage.
import { join } from 'node:path';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-report-token-0123456789';
const model = new ScriptedModel();

const e2e = e2eServer('report', TOKEN, {
  model,
  // A small window, so that the third prompt is past the threshold: 1,000 tokens.
  compaction: { contextWindow: 2_000, threshold: 0.5, keepRecent: 1 },
});

const open = () => e2e.open({ width: 1280, height: 900 });

async function send(page: Page, text: string, prompts: number) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page
    .locator('article.prompt')
    .nth(prompts - 1)
    .locator('.state-completed')
    .waitFor();
}

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({
  usage: { inputTokens, outputTokens, cachedInputTokens },
});

describe('the run report', () => {
  it('shows a timeline of the model and tool calls and how full the context is; marks where history was summarized', async () => {
    model.push(
      reply('Noted: your cat is called Miso.', { delayMs: 120, streamMs: 80, ...usage(320, 12) }),
      { ...callTool('demo.weather', { city: 'Paris' }), delayMs: 300, streamMs: 120, ...usage(610, 24, 300) },
      reply(['It is ', 'sunny in Paris.'], { delayMs: 250, streamMs: 200, ...usage(940, 30, 600) }),
      // The summary call: what it was sent, written down.
      (request) => ({
        text: `The user said: ${request.messages
          .filter((m) => m.type === 'message' && m.role === 'user')
          .map((m) => (m as { content: string }).content)
          .slice(0, -1)
          .join(' / ')}`,
        delayMs: 150,
        ...usage(700, 40),
      }),
      reply('Your cat is called Miso.', { delayMs: 100, streamMs: 60, ...usage(420, 9) }),
    );
    const page = await open();
    await send(page, 'Remember: my cat is called Miso.', 1);
    await send(page, 'What is the weather in Paris?', 2);

    const second = page.locator('article.prompt').nth(1);
    await second.getByRole('button', { name: 'Details' }).click();
    const details = second.getByRole('region', { name: 'Run report' });
    await details.locator('.timeline').waitFor();
    expect(
      await details.locator('.timeline-row:not(.timeline-axis) .timeline-name').allTextContents(),
    ).toEqual(['Model call 1', 'demo.weather', 'Model call 2']);
    expect(await details.locator('.report-figures').textContent()).toContain('1,550 in');
    // 970 of the 1,000-token budget: the provider's count of the last call.
    expect(await details.locator('.context-figures').textContent()).toBe('970 of 1,000 tokens (97%)');
    // The latest prompt's footer says the same, at a glance.
    expect(await second.locator('.context-badge').textContent()).toBe('Context 97%');
    await details.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(e2e.shots, 'report-timeline.png') });
    await details.screenshot({ path: join(e2e.shots, 'report-details.png') });

    // Its words push the context past the threshold: the older prompts are summarized first.
    await send(
      page,
      'What is my cat called? I keep forgetting, and I want her name on the new collar I ordered for her last week from the small pet shop near the station.',
      3,
    );
    const third = page.locator('article.prompt').nth(2);
    const marker = third.locator('.compaction-marker');
    await marker.waitFor();
    expect(await marker.textContent()).toContain('1 earlier message summarized');
    await marker.locator('summary').click();
    expect(await marker.locator('.compaction-summary').textContent()).toContain('my cat is called Miso');
    expect(await third.locator('.text-output').textContent()).toContain('Your cat is called Miso.');
    await third.getByRole('button', { name: 'Details' }).click();
    await third.locator('.context-figures').waitFor();
    // After the summary: the provider's count of the answer's call.
    expect(await third.locator('.context-figures').textContent()).toBe('429 of 1,000 tokens (43%)');
    await third.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(e2e.shots, 'report-compaction.png') });
    await page.context().close();
  });
});
