#!/usr/bin/env node
// The `tessera` command. Plain JavaScript, so that an old Node reaches this check and says what to do.
import { existsSync } from 'node:fs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `tessera needs Node.js 22.12 or later; this is ${process.version}.\n` +
      'In the Tessera repository, run it as `pnpm tessera …`: pnpm runs it on the repository’s Node 24.\n',
  );
  process.exit(1);
}

// In the repository: the TypeScript source, which this Node runs as it is. Installed: the compiled build.
const source = new URL('../src/main.ts', import.meta.url);
if (existsSync(source) && process.features.typescript) await import(source.href);
else await import(new URL('../dist/main.js', import.meta.url).href);
