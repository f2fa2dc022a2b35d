// Scaling benchmark: 1 to --max-processes server processes on one PostgreSQL database (one schema), each
// with its own pool, the 100 conversations spread over them round-robin. Prints, per number of processes,
// prompts/s, p50/p99, the database connections in use; then the relay's part (relay-scale.ts): the relay's
// CPU per process, each process publishing --relay-prompts prompts' events per second, over PostgreSQL and
// NATS. Writes both tables to --out (markdown). `--only http` or `--only relay` runs one part. Run:
// `pnpm --filter @tessera/server bench:scale [--max-processes 4] [--seconds 10] [--runs 3] [--pool 10]
// [--relay-prompts 100] [--relay-seconds 5] [--only http|relay] [--out ../../bench/results/scaling.md]`.
import { writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  type BenchServer,
  DATABASE_URL,
  freshSchema,
  median,
  startServer,
  TOKEN,
} from './bench-processes.ts';
import { type LoadResult, runLoad } from './load-client.ts';
import { RELAY_MODES, RELAY_TABLE, relayRows } from './relay-scale.ts';

const { values } = parseArgs({
  options: {
    'max-processes': { type: 'string', default: '4' },
    conversations: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    pool: { type: 'string', default: '10' },
    'relay-prompts': { type: 'string', default: '100' },
    'relay-seconds': { type: 'string', default: '5' },
    only: { type: 'string' },
    out: { type: 'string' },
  },
});

/** Connections the database has open to the bench's schema's processes (all of the bench database's). */
async function connections(): Promise<number> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const [row] = (
    await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
  ).rows;
  await client.end();
  return row?.n ?? 0;
}

const header = `Node ${process.version}, ${availableParallelism()} cores shared with the load generator and PostgreSQL (load average ${loadavg()[0]!.toFixed(2)} at start), ${values.conversations} conversations, pool of ${values.pool} per process, ${values.seconds} s per run, median of ${values.runs} run(s)`;
const rows: string[] = [];
const table =
  '| processes | prompts/s | p50 ms | p99 ms | runs (prompts/s) | connections to the database |\n|---:|---:|---:|---:|---|---:|';
if (values.only !== 'relay') {
  console.log(`${header}\n`);
  console.log(table);
  for (let processes = 1; processes <= Number(values['max-processes']); processes++) {
    rows.push(await httpRow(processes));
    console.log(rows.at(-1));
  }
}

const relayHeader = `The relay alone (bench/relay-process.ts): each process follows its own 25 conversations and publishes ${values['relay-prompts']} prompts/s of events for them (6 events a prompt), ${values['relay-seconds']} s per run, median of ${values.runs} run(s); CPU of the relay process (publishing, receiving, decoding), and of the PostgreSQL backends or the NATS server meanwhile`;
const relayLines: string[] = [];
if (values.only !== 'http') {
  console.log(`\n${relayHeader}\n\n${RELAY_TABLE}`);
  for (const mode of RELAY_MODES) {
    await relayRows(
      mode,
      {
        maxProcesses: Number(values['max-processes']),
        runs: Number(values.runs),
        seconds: Number(values['relay-seconds']),
        prompts: Number(values['relay-prompts']),
      },
      (row) => {
        relayLines.push(row);
        console.log(row);
      },
    );
  }
}

async function httpRow(processes: number): Promise<string> {
  const results: LoadResult[] = [];
  let inUse = 0;
  for (let run = 0; run < Number(values.runs); run++) {
    const schema = await freshSchema('bench_scale');
    const servers: BenchServer[] = [];
    try {
      // One at a time: the first migrates the schema, the others find it migrated.
      for (let i = 0; i < processes; i++) {
        servers.push(
          await startServer('postgres', { schema: schema.schema, env: { BENCH_POOL: values.pool } }),
        );
      }
      results.push(
        await runLoad({
          urls: servers.map((server) => server.url),
          token: TOKEN,
          conversations: Number(values.conversations),
          durationMs: Number(values.seconds) * 1000,
          onMeasureStart: async () => {
            inUse = await connections();
          },
        }),
      );
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await schema.drop();
    }
  }
  return `| ${processes} | ${median(results.map((r) => r.perSecond)).toFixed(0)} | ${median(results.map((r) => r.p50)).toFixed(1)} | ${median(results.map((r) => r.p99)).toFixed(1)} | ${results.map((r) => r.perSecond.toFixed(0)).join(', ')} | ${inUse} |`;
}

if (values.out) {
  const http =
    rows.length > 0 ? `## Server processes over HTTP\n\n${header}\n\n${table}\n${rows.join('\n')}\n\n` : '';
  const relay =
    relayLines.length > 0
      ? `## The relay's CPU per process\n\n${relayHeader}\n\n${RELAY_TABLE}\n${relayLines.join('\n')}\n`
      : '';
  await writeFile(
    values.out,
    `# Server processes on one PostgreSQL database\n\n\`pnpm --filter @tessera/server bench:scale${values.only ? ` --only ${values.only}` : ''}\`, ${new Date().toISOString()}\n\n${http}${relay}`,
  );
  console.log(`\nwritten to ${values.out}`);
}
