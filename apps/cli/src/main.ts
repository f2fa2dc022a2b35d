#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { ApiError, TesseraClient } from './client.ts';
import { decide, type Io, pending, send } from './commands.ts';

/** The token from the option, the environment, or the local server's data directory. */
function token(option: string | undefined): string | undefined {
  if (option) return option;
  if (process.env.TESSERA_TOKEN) return process.env.TESSERA_TOKEN;
  try {
    return readFileSync(`${process.env.TESSERA_DATA_DIR ?? '.tessera'}/local-token`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

const io: Io = { out: (text) => process.stdout.write(text), interactive: Boolean(process.stdout.isTTY) };
const program = new Command()
  .name('tessera')
  .description('Talk to a running Tessera server.')
  .option('--url <url>', 'server URL', process.env.TESSERA_URL ?? 'http://127.0.0.1:3000')
  .option('--token <token>', 'bearer token (default: $TESSERA_TOKEN or .tessera/local-token)');
const client = () => new TesseraClient(program.opts().url, token(program.opts().token));
const run = (action: () => Promise<number>) => async () => {
  try {
    process.exitCode = await action();
  } catch (error) {
    process.stderr.write(
      `tessera: ${error instanceof ApiError ? `${error.message} (${error.code})` : (error as Error).message}\n`,
    );
    process.exitCode = 1;
  }
};

program
  .command('send')
  .description('send a message and stream the answer')
  .argument('<message...>', 'what to say')
  .option('-c, --conversation <id>', 'continue this conversation')
  .action((words: string[], options: { conversation?: string }) =>
    run(() => send(client(), io, words.join(' '), options.conversation))(),
  );
program
  .command('pending')
  .description('list the tool calls waiting for your approval')
  .action(run(() => pending(client(), io)));
program
  .command('approve')
  .description('approve a pending tool call')
  .argument('<toolCallId>')
  .action((id: string) => run(() => decide(client(), io, id, true))());
program
  .command('reject')
  .description('reject a pending tool call')
  .argument('<toolCallId>')
  .option('-r, --reason <reason>', 'why (the model reads it)')
  .action((id: string, options: { reason?: string }) =>
    run(() => decide(client(), io, id, false, options.reason))(),
  );

await program.parseAsync();
