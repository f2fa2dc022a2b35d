import { resolve } from 'node:path';
import { ConfigError } from './config.ts';
import { createServer, type TesseraServer } from './create-server.ts';
import { listenProblem } from './listen-problem.ts';
import { loadConfig } from './load-config.ts';
import { createLog, logFormat } from './log-output.ts';
import { startTelemetry, type Telemetry } from './telemetry.ts';

// JSON lines for log collectors; at a terminal, one short line per request around the banner.
const log = createLog(logFormat(process.env, process.stdout), { env: process.env });

// Ctrl-C (SIGINT) and SIGTERM stop the server cleanly and exit 0, so a runner (pnpm start) reports no
// failure; a second Ctrl-C exits at once. Handled from the start: a signal during start-up stops once started.
let starting: Promise<TesseraServer | undefined> | undefined;
let telemetry: Telemetry | undefined;
let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) {
    if (signal === 'SIGINT') process.exit(130);
    return;
  }
  stopping = true;
  log.info({ signal }, 'shutting down');
  void (async () => {
    const server = await starting?.catch(() => undefined);
    await server?.close();
    await telemetry?.shutdown().catch((error: unknown) => log.warn({ err: error }, 'flushing traces failed'));
    log.info('stopped');
    process.exit(0);
  })();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

starting = start();
starting.catch((error: unknown) => {
  // What the operator can fix is one line; anything else keeps its stack.
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  const problem = listenProblem(error);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});

async function start(): Promise<TesseraServer | undefined> {
  const { file, options } = await loadConfig();
  if (file) log.info({ file }, 'configuration read');
  // Before anything makes a span: the SDK registers itself with @opentelemetry/api.
  telemetry = await startTelemetry();
  if (telemetry) log.info('OpenTelemetry tracing on (OTEL_* environment variables)');
  const server = await createServer({ ...options, logger: log });
  if (stopping) return server;
  try {
    const { url } = await server.listen();
    // In the fragment: a browser never sends it to the server (no token in a request URL or a log); the UI
    // exchanges it for a session cookie and takes it out of the address bar.
    const link = server.token ? `${url}/#token=${server.token}` : url;
    console.log(
      `\n  Tessera is running: ${link}\n  API reference: ${url}/docs\n  Model: ${server.model.label}\n`,
    );
    if (server.token)
      console.log(`  Your token (also in ${resolve(options.dataDir, 'local-token')}): ${server.token}\n`);
    return server;
  } catch (error) {
    await server.close(); // the store and plugins started; the port was not ours
    throw error;
  }
}
