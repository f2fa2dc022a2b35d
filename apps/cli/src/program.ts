import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parseAnswer, parseInputOption, parseSetOptions } from './approve-input.ts';
import { parseBudgetOptions } from './budgets.ts';
import { ApiError, ServerDownError, TesseraClient } from './client.ts';
import { decide, download, fork, list, pending, send, show } from './commands.ts';
import { EXIT, type Format } from './follow.ts';
import {
  type CriterionOption,
  confirmCriterion,
  createGoal,
  GOAL_BUDGETS,
  goalAction,
  listGoals,
  showGoal,
} from './goals.ts';
import { findToken, serverUrl } from './locate.ts';
import { listMessages, removeMessage, resume, sendWhileBusy, stop } from './loop-control.ts';
import type { Io } from './render.ts';
import { MAX_NESTED_DEPTH } from './sub-runs.ts';

/** Read at run time: the same path from src/ and from the compiled dist/. */
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export type Context = { io: Io; env: Record<string, string | undefined>; cwd: string };

const ENVIRONMENT = `
Environment:
  TESSERA_URL       the server (default: http://$HOST:$PORT, as the server listens: http://127.0.0.1:3000)
  TESSERA_TOKEN     a bearer token (default: the local server's apps/server/.tessera/local-token,
                    found from the current folder up to the workspace root)
  TESSERA_DATA_DIR  the server's data directory, if it is not .tessera
  NO_COLOR          plain text even in a terminal`;

const EXAMPLES = (command: string) => `
Examples:
  $ ${command} send "make a sales report"
  $ ${command} send -c conv_123 "and now the weather in Paris"
  $ ${command} send -f notes.txt -f data.csv "what is in these?"
  $ ${command} send -c conv_123 --steer "use the EU account instead"
  $ ${command} send -c conv_123 --queue "then email me the summary"
  $ ${command} approve call_123
  $ ${command} approve call_123 --set amount=50
  $ ${command} approve call_123 --input '{"amount": 50, "to": "Ada"}'
  $ ${command} stop conv_123
  $ ${command} fork conv_123 prm_456 --title "Another try"
  $ ${command} resume out_123 stop
  $ ${command} resume out_123 continue --budget maxRounds=50
  $ ${command} reject call_123 --reason "not this one"
  $ ${command} answer call_123 '{"balance": 120}'
  $ ${command} skip call_123 --reason "not needed"
  $ ${command} goal create conv_123 --objective "get the tests green" --criterion "all tests pass" --check tests.run
  $ ${command} goal resume conv_123 --budget modelCalls=80
  $ ${command} send --json "weather in Oslo" | jq -c 'select(.type == "prompt.output")'
${ENVIRONMENT}`;

type SendCommandOptions = {
  conversation?: string;
  file: string[];
  model?: 'normal' | 'high';
  steer?: boolean;
  queue?: boolean;
  json?: boolean;
};
const collect = (value: string, previous: string[]) => [...previous, value];

const positive = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('Give a whole number from 1.');
  return number;
};

const depth = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > MAX_NESTED_DEPTH)
    throw new InvalidArgumentError(`Give a whole number from 0 to ${MAX_NESTED_DEPTH}.`);
  return number;
};

/** What each command's action needs. */
type CommandKit = {
  io: Io;
  cwd: string;
  /** The client of the server: made when a command runs, once the global --url and --token are parsed. */
  client: () => TesseraClient;
  /** Runs a command: the exit code it returns, or a one-line error (with exit code 1). */
  run: <A extends unknown[]>(action: (...args: A) => Promise<number>) => (...args: A) => Promise<void>;
};

const json = (command: Command, what: string) => command.option('--json', what);
const format = (options: { json?: boolean }): Format => ({ json: Boolean(options.json) });

/** The `tessera` program: each command is a call of the server's HTTP API, rendered for people or as JSON. */
export function buildProgram({ io: given, env, cwd }: Context): {
  program: Command;
  exitCode: () => number;
} {
  let exitCode: number = EXIT.ok;
  // The commands printed for the user to run next carry the --url and --token given here (read once parsed).
  const io: Io = {
    ...given,
    get command() {
      return suggestedCommand(given.command, program.opts());
    },
  };
  const program = new Command()
    .name('tessera')
    .description(
      'Talk to a running Tessera server from the terminal: send messages, follow the answers, decide approvals.',
    )
    .version(version)
    .option('--url <url>', 'the server (default: $TESSERA_URL, else http://127.0.0.1:$PORT)')
    .option('--token <token>', 'a bearer token (default: $TESSERA_TOKEN, else the local token file)')
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .addHelpText('after', EXAMPLES(given.command));

  const kit: CommandKit = {
    io,
    cwd,
    client: () => {
      const { url, token } = program.opts<{ url?: string; token?: string }>();
      if (token === '') throw new Error(TOKEN_EMPTY);
      return new TesseraClient(url ?? serverUrl(env), findToken(token, cwd, env)?.token);
    },
    run:
      (action) =>
      async (...args) => {
        try {
          exitCode = await action(...args);
        } catch (error) {
          io.err(`tessera: ${describe(error)}\n`);
          exitCode = EXIT.failed;
        }
      },
  };
  // In this order in the help.
  for (const add of [
    addSend,
    addApprove,
    addReject,
    addAnswer,
    addSkip,
    addResume,
    addStop,
    addPending,
    addMessages,
    addList,
    addShow,
    addFork,
    addDownload,
    addGoal,
    addGoals,
  ]) {
    add(program, kit);
  }

  const configure = (commands: readonly Command[]) => {
    for (const command of commands) {
      command.configureOutput({ writeOut: io.out, writeErr: io.err }).exitOverride().showHelpAfterError();
      configure(command.commands);
    }
  };
  configure(program.commands);
  return { program, exitCode: () => exitCode };
}

function addSend(program: Command, { io, cwd, client, run }: CommandKit): void {
  json(
    program
      .command('send')
      .description('send a message and stream the answer: text, tool calls, approvals, widgets, files')
      .argument('[message...]', 'what to say (quotes are optional)')
      .option('-c, --conversation <id>', 'continue this conversation (default: a new one)')
      .option('-f, --file <path>', 'attach a file (repeat for more; a message is then optional)', collect, [])
      .addOption(new Option('-m, --model <class>', 'the model class').choices(['normal', 'high']))
      .addOption(
        new Option(
          '--steer',
          'while the conversation is busy: the running answer reads this at its next step (needs -c)',
        ).conflicts('queue'),
      )
      .option(
        '--queue',
        'while the conversation is busy: run this next, once the current answer ends (needs -c)',
      ),
    'one JSON event per line (NDJSON) instead of text; the last one ends the prompt',
  ).action(
    run((words: string[], options: SendCommandOptions) => {
      const mode = options.steer ? 'steer' : options.queue ? 'queue' : undefined;
      if (!mode)
        return send(client(), io, format(options), words.join(' '), {
          conversationId: options.conversation,
          files: options.file.map((path) => resolve(cwd, path)),
          model: options.model,
        }).catch((error: unknown) => {
          if (!(error instanceof ApiError) || error.code !== 'conversation_busy') throw error;
          const id = options.conversation ?? '<conversationId>';
          throw new Error(
            `The conversation is busy (an answer is running or waits for your decision): send with --steer (the running answer reads it) or --queue (it runs next), or stop it first: ${io.command} stop ${id}`,
          );
        });
      if (!options.conversation)
        throw new Error(`--${mode} needs the conversation: add -c <conversationId>.`);
      if (options.file.length > 0) throw new Error(`Files cannot wait: send them without --${mode}.`);
      return sendWhileBusy(client(), io, format(options), options.conversation, words.join(' '), mode);
    }),
  );
}

function addApprove(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('approve')
      .description('approve a pending tool call: it runs, and the answer that follows streams')
      .argument('<toolCallId>', 'the id shown with the approval (or by `pending`)')
      .option(
        '-i, --input <json>',
        "run it with these arguments, replacing all of the model's (checked by the tool)",
      )
      .option(
        '-s, --set <key=value>',
        "change one argument, keeping the model's others (repeatable; the value is JSON if it parses, else a string)",
        collect,
        [],
      ),
    'one JSON event per line (NDJSON)',
  ).action(
    run((id: string, options: { input?: string; set: string[]; json?: boolean }) =>
      decide(client(), io, format(options), id, {
        kind: 'approve',
        edit: { ...parseInputOption(options.input), set: parseSetOptions(options.set) },
      }),
    ),
  );
}

function addReject(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('reject')
      .description('reject a pending tool call: the model reads why, and its answer streams')
      .argument('<toolCallId>', 'the id shown with the approval (or by `pending`)')
      .option('-r, --reason <reason>', 'why (the model reads it)'),
    'one JSON event per line (NDJSON)',
  ).action(
    run((id: string, options: { reason?: string; json?: boolean }) =>
      decide(client(), io, format(options), id, { kind: 'reject', reason: options.reason }),
    ),
  );
}

function addAnswer(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('answer')
      .description(
        'answer a pending tool call with its result instead of running it: the model reads your answer, and that you gave it',
      )
      .argument('<toolCallId>', 'the id shown with the approval (or by `pending`)')
      .argument(
        '<result>',
        'the result: JSON if it parses (\'{"balance": 120}\', 42), else the text as it is',
      )
      .option('-r, --reason <reason>', 'why (the model reads it)'),
    'one JSON event per line (NDJSON)',
  ).action(
    run((id: string, result: string, options: { reason?: string; json?: boolean }) =>
      decide(client(), io, format(options), id, {
        kind: 'answer',
        answer: parseAnswer(result),
        reason: options.reason,
      }),
    ),
  );
}

function addSkip(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('skip')
      .description(
        'skip a pending tool call: it does not run, the model goes on without it, and its answer streams',
      )
      .argument('<toolCallId>', 'the id shown with the approval (or by `pending`)')
      .option('-r, --reason <reason>', 'why (the model reads it)'),
    'one JSON event per line (NDJSON)',
  ).action(
    run((id: string, options: { reason?: string; json?: boolean }) =>
      decide(client(), io, format(options), id, { kind: 'skip', reason: options.reason }),
    ),
  );
}

function addResume(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('resume')
      .description(
        'decide a paused prompt (it repeated itself, a plugin asked, or it reached a budget): continue or stop it',
      )
      .argument('<pauseId>', 'the id shown with the pause (or by `pending`)')
      .addArgument(new Argument('<choice>', 'what to do').choices(['continue', 'stop']))
      .option(
        '-b, --budget <name=limit>',
        'past a budget, continue with a larger one, e.g. maxRounds=50 (repeatable)',
        (value: string, previous: string[] = []) => [...previous, value],
      ),
    'one JSON event per line (NDJSON)',
  ).action(
    run((id: string, choice: 'continue' | 'stop', options: { json?: boolean; budget?: string[] }) =>
      resume(client(), io, format(options), id, choice, parseBudgetOptions(options.budget)),
    ),
  );
}

function addStop(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('stop')
      .alias('cancel')
      .description(
        'stop what runs in a conversation: the answer being written, or the prompt waiting for a decision',
      )
      .argument('<conversationId>', 'the id printed after `send`, or from `list`'),
    'the stopped prompts as JSON',
  ).action(run((id: string, options: { json?: boolean }) => stop(client(), io, format(options), id)));
}

function addPending(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('pending')
      .description('list the tool calls waiting for your approval and the prompts paused for you'),
    'the list as JSON (approvals have a toolCallId, pauses a pauseId)',
  ).action(run((options: { json?: boolean }) => pending(client(), io, format(options))));
}

function addMessages(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('messages')
      .description('list the messages waiting for a conversation (sent with --steer or --queue)')
      .argument('<conversationId>')
      .option('--remove <messageId>', 'take this one off the list: it is never delivered'),
    'the list as JSON',
  ).action(
    run((conversationId: string, options: { remove?: string; json?: boolean }) =>
      options.remove
        ? removeMessage(client(), io, conversationId, options.remove)
        : listMessages(client(), io, format(options), conversationId),
    ),
  );
}

function addList(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('list')
      .alias('ls')
      .description('list your conversations, most recent first')
      .option('-n, --limit <n>', 'how many', positive, 20),
    'the list as JSON',
  ).action(
    run((options: { limit: number; json?: boolean }) => list(client(), io, format(options), options.limit)),
  );
}

function addShow(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('show')
      .description('show a conversation: each message and everything the answer did')
      .argument('<conversationId>', 'the id from `list` or printed after `send`')
      .option(
        '--depth <n>',
        `how many levels of sub-agents to show inside the calls that started them (0: one line each; at most ${MAX_NESTED_DEPTH})`,
        depth,
        MAX_NESTED_DEPTH,
      )
      .option('--no-agents', 'show no sub-agent runs, only a line for each (as --depth 0)'),
    'the conversation with its prompts, as JSON (sub-agent runs are not in it)',
  ).action(
    run((id: string, options: { json?: boolean; depth: number; agents: boolean }) =>
      show(client(), io, format(options), id, { depth: options.agents ? options.depth : 0 }),
    ),
  );
}

function addFork(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('fork')
      .description(
        'branch a conversation at one of its prompts: a new conversation sharing the prompts before it, to send to',
      )
      .argument('<conversationId>', 'the id from `list`')
      .argument(
        '<promptId>',
        'the id `show` prints after each message: the fork shares the prompts before it',
      )
      .option('-t, --title <title>', "the fork's title (default: the conversation's)"),
    'the new conversation as JSON',
  ).action(
    run((conversationId: string, promptId: string, options: { title?: string; json?: boolean }) =>
      fork(client(), io, format(options), conversationId, promptId, options.title),
    ),
  );
}

function addDownload(program: Command, { io, cwd, client, run }: CommandKit): void {
  program
    .command('download')
    .description('save a file of a conversation (a file link needs your token: this command has it)')
    .argument('<conversationId>')
    .argument('<fileId>')
    .option('-o, --output <path>', "where to save it (default: the file's name, never overwriting)")
    .action(
      run((conversationId: string, fileId: string, options: { output?: string }) =>
        download(client(), io, conversationId, fileId, options.output && resolve(cwd, options.output), cwd),
      ),
    );
}

const GOAL_STATES = ['active', 'paused', 'completed', 'stopped', 'budget_exhausted'];

/** `--budget name=limit` options of a goal (repeatable), as its budgets; the server checks the limits. */
export function parseGoalBudgets(values: readonly string[] = []): Record<string, number> | undefined {
  const budgets = parseBudgetOptions(values);
  for (const name of Object.keys(budgets ?? {})) {
    if (!(GOAL_BUDGETS as readonly string[]).includes(name))
      throw new Error(`A goal has no budget '${name}': its budgets are ${GOAL_BUDGETS.join(', ')}.`);
  }
  return budgets;
}

const GOAL_BUDGET_HELP = `a budget of the goal, name=limit (repeatable): ${GOAL_BUDGETS.join(', ')}; e.g. modelCalls=20`;

function addGoal(program: Command, kit: CommandKit): void {
  const goal = program
    .command('goal')
    .description(
      "a conversation's goal: the agent works toward it over many prompts until its criteria are met (show, create, pause, resume, stop, confirm)",
    );
  addGoalShow(goal, kit);
  addGoalCreate(goal, kit);
  addGoalActions(goal, kit);
  addGoalConfirm(goal, kit);
}

function addGoalShow(goal: Command, { io, client, run }: CommandKit): void {
  json(
    goal
      .command('show', { isDefault: true })
      .description(
        'show the goal (also `goal <conversationId>`): objective, criteria (✓ met, ✗ not yet) with their evidence, plan, budget used and left, state and why, the latest progress',
      )
      .argument('<conversationId>', 'the id from `list` or `goals`'),
    'the goal as JSON',
  ).action(run((id: string, options: { json?: boolean }) => showGoal(client(), io, format(options), id)));
}

function addGoalCreate(goal: Command, { io, client, run }: CommandKit): void {
  // In the order given: a --check applies to the --criterion just before it.
  const criteria: CriterionOption[] = [];
  json(
    goal
      .command('create')
      .description('set a goal for a conversation: its first prompt starts now (unless --no-start)')
      .argument('<conversationId>', 'the id from `list` or printed after `send`')
      .requiredOption('--objective <text>', 'what the agent works toward')
      .option(
        '--criterion <text>',
        'how to tell it is done (repeat for more): you confirm it, unless a --check follows it',
        (value: string) => {
          criteria.push({ description: value });
          return criteria.length;
        },
      )
      .option('--check <toolId>', 'the tool that checks the --criterion just before it', (value: string) => {
        const last = criteria.at(-1);
        if (!last) throw new InvalidArgumentError('Give --check after the --criterion it checks.');
        if (last.verify) throw new InvalidArgumentError('One --check per --criterion.');
        last.verify = { kind: 'check', toolId: value };
        return value;
      })
      .option('-b, --budget <name=limit>', GOAL_BUDGET_HELP, collect, [])
      .option('--stall-limit <n>', 'prompts in a row without progress before it pauses (default 3)', positive)
      .option('--no-start', 'set it without starting its first prompt'),
    'the goal as JSON',
  ).action(
    run(
      (
        id: string,
        options: { objective: string; budget: string[]; stallLimit?: number; start: boolean; json?: boolean },
      ) =>
        createGoal(client(), io, format(options), id, {
          objective: options.objective,
          criteria,
          budgets: parseGoalBudgets(options.budget),
          ...(options.stallLimit !== undefined && { stallLimit: options.stallLimit }),
          start: options.start,
        }),
    ),
  );
}

function addGoalActions(goal: Command, { io, client, run }: CommandKit): void {
  const actions = {
    pause: 'pause the goal: it starts no more prompts until you resume it',
    resume:
      'resume a paused goal, or one out of budget with larger budgets (--budget): its next prompt starts',
    stop: 'stop the goal for good',
  } as const;
  for (const action of ['pause', 'resume', 'stop'] as const) {
    const command = goal.command(action).description(actions[action]).argument('<conversationId>');
    if (action === 'resume') command.option('-b, --budget <name=limit>', GOAL_BUDGET_HELP, collect, []);
    else command.option('-r, --reason <reason>', 'why (kept with the goal)');
    json(command, 'the goal as JSON').action(
      run((id: string, options: { reason?: string; budget?: string[]; json?: boolean }) =>
        goalAction(client(), io, format(options), id, action, {
          ...(options.reason !== undefined && { reason: options.reason }),
          ...(options.budget && { budgets: parseGoalBudgets(options.budget) }),
        }),
      ),
    );
  }
}

function addGoalConfirm(goal: Command, { io, client, run }: CommandKit): void {
  json(
    goal
      .command('confirm')
      .description(
        'confirm a criterion (one you verify): your note is its evidence, and the goal completes once every criterion has some',
      )
      .argument('<conversationId>')
      .argument('<criterionId>', 'c1, c2, … as `goal` shows them')
      .option('-n, --note <text>', 'what you saw'),
    'the goal as JSON',
  ).action(
    run((id: string, criterionId: string, options: { note?: string; json?: boolean }) =>
      confirmCriterion(client(), io, format(options), id, criterionId, options.note),
    ),
  );
}

function addGoals(program: Command, { io, client, run }: CommandKit): void {
  json(
    program
      .command('goals')
      .description('list your goals, newest first: conversation, state, criteria met, objective')
      .option('-n, --limit <n>', 'how many (at most 200)', positive, 20)
      .addOption(new Option('--state <state>', 'only those in this state').choices(GOAL_STATES)),
    'the list as JSON',
  ).action(
    run((options: { limit: number; state?: (typeof GOAL_STATES)[number]; json?: boolean }) =>
      listGoals(client(), io, format(options), {
        limit: Math.min(options.limit, 200),
        ...(options.state && { state: options.state as never }),
      }),
    ),
  );
}

const TOKEN_EMPTY =
  '--token is empty. (Suggested commands name "$TESSERA_TOKEN" instead of printing your token: set it, or pass the token.)';

/** A word as the shell reads it back: as it is when it is safe, else in single quotes. */
const shellWord = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * How to call this program in a suggested command: as the user did, with the --url they typed and, for a
 * --token they typed, "$TESSERA_TOKEN" in its place: a token is never printed (a terminal's scrollback and
 * logs keep it). A URL or token from the environment or the token file is found again without options.
 */
export function suggestedCommand(base: string, { url, token }: { url?: string; token?: string }): string {
  return [
    base,
    ...(url ? ['--url', shellWord(url)] : []),
    ...(token ? ['--token', '"$TESSERA_TOKEN"'] : []),
  ].join(' ');
}

/** The message of an error, for one line: what the server said, or what went wrong here. */
function describe(error: unknown): string {
  if (error instanceof ApiError) {
    return error.status === 404 ? `${error.message} (not found)` : `${error.message} (${error.code})`;
  }
  if (error instanceof ServerDownError) return error.message;
  return (error as Error).message;
}

/** Parses `argv` (without node and the script) and runs the command; resolves to the exit code. */
export async function runCli(argv: string[], context: Context): Promise<number> {
  const { program, exitCode } = buildProgram(context);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    // --help and --version end here with code 0; a usage error has already been printed.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : 2;
    throw error;
  }
  return exitCode();
}
