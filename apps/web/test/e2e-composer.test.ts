// @vitest-environment node
// End-to-end tests of the composer in Debian's Chromium, against the real server (the demo model): a file over
// the server's upload limit is refused when it is chosen, never a chip.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-composer-token-0123456789';
/** Small enough that a test file is over it; the UI reads it from GET /api/me. */
const MAX_UPLOAD_BYTES = 2048;

const e2e = e2eServer('composer', TOKEN, { limits: { maxUploadBytes: MAX_UPLOAD_BYTES } });

const file = (name: string, bytes: number) => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.alloc(bytes, 'a'),
});

describe('the composer', () => {
  it('refuses a file over the upload limit when it is chosen, naming it and the limit; the others are sent', async () => {
    const page = await e2e.open({ width: 1280, height: 860 });
    const chooser = page.locator('form.composer input[type="file"]');
    await chooser.setInputFiles([file('small.txt', 100), file('huge-report.txt', 5000)]);
    const alert = page.locator('form.composer').getByRole('alert');
    await alert
      .getByText("huge-report.txt (4.9 KB) is over the server's limit of 2.0 KB for uploads.")
      .waitFor();
    const chips = page.getByRole('list', { name: 'Attachments to send' }).locator('.chip-name');
    expect(await chips.allTextContents()).toEqual(['small.txt']);
    await page.screenshot({ path: join(e2e.shots, 'composer-file-refused.png') });

    // Together over the limit: the one that would take them over is refused too.
    await chooser.setInputFiles([file('half.txt', 1990)]);
    await alert
      .getByText(/^half\.txt \(1\.9 KB\) would take the files to send over the server's limit/)
      .waitFor();
    expect(await chips.allTextContents()).toEqual(['small.txt']);

    // A file that fits is attached, and what was attached is sent.
    await chooser.setInputFiles([file('notes.txt', 200)]);
    await expect.poll(() => chips.allTextContents()).toEqual(['small.txt', 'notes.txt']);
    expect(await alert.count()).toBe(0);
    await page.getByRole('textbox', { name: 'Message' }).fill('here are my files');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = page.locator('.user-input').getByRole('list', { name: 'Attachments' });
    await sent.getByText('notes.txt').waitFor();
    expect(await sent.locator('.sent-name').allTextContents()).toEqual(['small.txt', 'notes.txt']);
    await page.context().close();
  });
});
