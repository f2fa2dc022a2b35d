#!/usr/bin/env node
// The `tessera-server` command: on a Node older than 22.12 says so in a line, else reads `.env` from the current
// directory (the environment wins over it), makes sure Node can load a TypeScript config file, then runs the
// server (main.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { findConfigFile } from './config-file.ts';
import { unsupportedNode } from './node-version.ts';

const tooOld = unsupportedNode(process.versions.node);
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}

const envFile = resolve('.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

if (needsTypeStripping()) await rerunStrippingTypes();
else await import('./main.ts');

/**
 * A `tessera.config.ts` (or `.mts`) is imported as it is: Node strips its types by default from 22.18 on, and
 * from 22.12 with `--experimental-strip-types`. Node does not strip types inside node_modules, but the config
 * file is the app's own; what it imports from packages is their JavaScript.
 */
function needsTypeStripping(): boolean {
  // Once restarted, never again: a Node that still does not strip types fails on the file, saying why.
  if (process.features.typescript || process.env.TESSERA_STRIPPING_TYPES) return false;
  let file: string | undefined;
  try {
    file = findConfigFile(process.cwd(), process.env);
  } catch {
    return false; // two config files: the server says so
  }
  return file !== undefined && /\.m?ts$/.test(file);
}

/**
 * This command again, in a Node that strips types, with the same arguments, input and output. A Ctrl-C reaches
 * both processes from the terminal; a SIGINT or SIGTERM sent to this one alone is passed on as a SIGTERM (a
 * clean stop, which a second one does not hurry). Exits as the server did.
 */
async function rerunStrippingTypes(): Promise<never> {
  // After this Node's own flags, so that these win over a `--no-experimental-strip-types` among them.
  const flags = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'];
  const child = spawn(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, TESSERA_STRIPPING_TYPES: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill('SIGTERM'));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
    child.once('exit', (exitCode, exitSignal) => done([exitCode, exitSignal])),
  );
  process.exit(code ?? (signal === 'SIGINT' ? 130 : 1));
}
