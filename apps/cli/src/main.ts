import { EXIT } from './follow.ts';
import { runCli } from './program.ts';
import type { Io } from './render.ts';

const env = process.env;
// A reader that stops early (`| head`) is not an error of this program.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
// Through `pnpm tessera` the script runs at the workspace root; the user's folder is INIT_CWD.
const throughPnpm = env.npm_lifecycle_event === 'tessera';
const color = Boolean(process.stdout.isTTY) && !env.NO_COLOR;
const io: Io = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  interactive: Boolean(process.stderr.isTTY),
  color,
  onInterrupt: (handler) => {
    process.on('SIGINT', handler);
    return () => void process.off('SIGINT', handler);
  },
  // `pnpm tessera` works at the workspace root; `pnpm -w tessera` anywhere in the checkout.
  command: !throughPnpm ? 'tessera' : env.INIT_CWD === process.cwd() ? 'pnpm tessera' : 'pnpm -w tessera',
};

const code = await runCli(process.argv.slice(2), {
  io,
  env,
  cwd: (throughPnpm && env.INIT_CWD) || process.cwd(),
});
// pnpm reports any code but 0 as a failure of the script (a red ELIFECYCLE), and a prompt that waits for the
// user's decision is no failure: `pnpm tessera` ends 0 then. The bin itself keeps 3 for scripts.
process.exitCode = throughPnpm && code === EXIT.waiting ? EXIT.ok : code;
