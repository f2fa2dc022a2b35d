import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

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

/** JSON lines to stdout are written in batches of about this many characters… */
const BATCH_CHARS = 16 * 1024;
/** …or of the lines logged in this many milliseconds, whichever comes first. */
const BATCH_MS = 200;

/**
 * Stdout for JSON lines, written in batches: a write per line was a system call and a hand-off to a libuv
 * thread per request and per prompt (~4% of a busy server's main thread). pino's destination (sonic-boom)
 * does the writing; what waits here is written synchronously when the process exits (a killed process loses
 * at most the last BATCH_MS of lines).
 */
function batchedStdout(): pino.DestinationStream {
  const out = pino.destination({ dest: 1, sync: false });
  let batch = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (batch === '') return;
    out.write(batch);
    batch = '';
  };
  process.once('exit', () => {
    flush();
    try {
      out.flushSync();
    } catch {
      // stdout closed: nowhere to write
    }
  });
  return {
    write(line: string) {
      batch += line;
      if (batch.length >= BATCH_CHARS) flush();
      else timer ??= setTimeout(flush, BATCH_MS).unref();
    },
  };
}

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
