import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

/** JSON lines for programs that collect logs; one short line a record for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

type Env = Record<string, string | undefined>;

/**
 * `TESSERA_LOG_FORMAT` (`json` or `pretty`) when set; else readable lines when stdout is a terminal, JSON
 * when it is not (a service manager, a container, a pipe to a log collector).
 */
export function logFormat(env: Env, stdout: { isTTY?: boolean }): LogFormat {
  const chosen = env.TESSERA_LOG_FORMAT?.trim().toLowerCase();
  if (chosen === 'json' || chosen === 'pretty') return chosen;
  return stdout.isTTY ? 'pretty' : 'json';
}

/** The fields of a request line (see http/request-log.ts) that its readable line says in its message. */
const REQUEST_FIELDS = ['method', 'route', 'status', 'durationMs'];

/**
 * A record's message as a person reads it: a request as `GET /api/me 200 1.2 ms`; any other record as its
 * message, with its duration when it has one.
 */
function readableMessage(record: Record<string, unknown>, messageKey: string): string {
  const message = String(record[messageKey] ?? '');
  if (message === 'request')
    return `${record.method} ${record.route} ${record.status} ${record.durationMs} ms`;
  return record.durationMs === undefined ? message : `${message} (${record.durationMs} ms)`;
}

/**
 * Stdout for JSON lines, written in batches by pino's own destination (sonic-boom): a write per line was a
 * system call and a hand-off to a libuv thread per request and per prompt (~4% of a busy server's main
 * thread). Lines wait until 8 KB are there or 200 ms have passed; pino writes what waits when the process
 * exits (a killed one loses at most the last 200 ms). Bounded: a stdout nobody reads (a stalled log
 * collector) drops lines past 16 MB rather than fill the heap.
 */
const batchedStdout = (): pino.DestinationStream =>
  pino.destination({
    dest: 1,
    sync: false,
    minLength: 8 * 1024,
    periodicFlush: 200,
    maxLength: 16 * 1024 * 1024,
  });

/**
 * The server's logger, named `tessera`, writing to `destination` (stdout unless given) in `format`. Pretty
 * lines are formatted as they are written (in this thread, not a worker), one per record: time, level,
 * message, then the record's other fields on the same line.
 */
export function createLog(
  format: LogFormat,
  { destination, env = {} }: { destination?: NodeJS.WritableStream & { isTTY?: boolean }; env?: Env } = {},
): Logger {
  if (format === 'json') return pino({ name: 'tessera' }, destination ?? batchedStdout());
  const output = destination ?? process.stdout;
  // Loaded only for a terminal (pino-pretty and its ~35 modules): a server logging JSON never needs it.
  const pretty: typeof PinoPretty = createRequire(import.meta.url)('pino-pretty');
  return pino(
    { name: 'tessera' },
    pretty({
      destination: output,
      colorize: Boolean(output.isTTY) && !env.NO_COLOR,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: ['pid', 'hostname', 'name', ...REQUEST_FIELDS].join(','),
      messageFormat: readableMessage,
      sync: true,
    }),
  );
}
