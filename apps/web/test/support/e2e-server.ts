import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CreateServerOptions, createServer, demoPlugin, type TesseraServer } from '@tessera/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchChromium } from './chromium.ts';

export type E2E = {
  /** Set before the file's tests run. */
  server: TesseraServer;
  url: string;
  browser: Browser;
  /** Where the file's screenshots go: `SHOTS_DIR` (where a reviewer looks), else a folder of the temp dir. */
  shots: string;
  /** A page signed in as the user, on a new (stored, empty) conversation, at this viewport and system theme. */
  open(viewport: { width: number; height: number }, colorScheme?: 'light' | 'dark'): Promise<Page>;
};

/**
 * For one end-to-end file: the real server (the built-in plugins and the demo tools, one user `ada` with
 * `token`) serving the UI built once per test run (test/support/build-ui.ts), and Debian's Chromium;
 * started before the file's tests and closed after them.
 */
export function e2eServer(name: string, token: string, options: CreateServerOptions = {}): E2E {
  let dataDir: string | undefined;
  const e2e = {
    shots: process.env.SHOTS_DIR ?? join(tmpdir(), `tessera-e2e-${name}-shots`),
    async open(viewport, colorScheme = 'light') {
      const context = await e2e.browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.log('[pageerror]', e.message));
      await page.goto(`${e2e.url}/#token=${token}`);
      // "New conversation" stores nothing until its first message: the conversation is made here, and opened.
      const made = await fetch(`${e2e.url}/api/conversations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const { id } = (await made.json()) as { id: string };
      await page.getByRole('button', { name: 'New conversation' }).first().waitFor();
      await page.goto(`${e2e.url}/#${encodeURIComponent(id)}`);
      await page.locator('section.conversation[aria-label="Conversation"]').waitFor();
      await page.getByRole('textbox', { name: 'Message' }).waitFor();
      return page;
    },
  } as E2E;
  beforeAll(async () => {
    await mkdir(e2e.shots, { recursive: true });
    dataDir = await mkdtemp(join(tmpdir(), `tessera-e2e-${name}-`));
    e2e.server = await createServer({
      dataDir,
      auth: { tokens: { [token]: 'ada' } },
      plugins: [demoPlugin],
      webDir: inject('webDir'),
      ...options,
    });
    e2e.url = (await e2e.server.listen({ port: 0 })).url;
    e2e.browser = await launchChromium();
  });
  afterAll(async () => {
    await e2e.browser?.close();
    await e2e.server?.close({ graceMs: 50 });
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return e2e;
}
