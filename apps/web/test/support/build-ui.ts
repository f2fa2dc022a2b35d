// Vitest global setup: the UI is built once per test run, into a directory of its own, and every end-to-end
// file serves that build (`inject('webDir')`); files that each built it ran four Vite builds at once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built UI (index.html and assets) for the server under test to serve. */
    webDir: string;
  }
}

export default async function buildUi(project: TestProject) {
  const webDir = await mkdtemp(join(tmpdir(), 'tessera-web-e2e-'));
  await build({
    root: new URL('../..', import.meta.url).pathname,
    logLevel: 'error',
    build: { outDir: webDir, emptyOutDir: true },
  });
  project.provide('webDir', webDir);
  return () => rm(webDir, { recursive: true, force: true });
}
