// One server of the soak test, in its own process (the soak kills it with SIGKILL): createServer over the
// PostgreSQL schema the soak gives, with the soak's tools and model. Prints its URL as one JSON line.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresStore } from '@tessera/store-postgres';
import { createServer } from '../src/index.ts';
import { soakModel, soakPlugin } from './soak-plugin.ts';

const { SOAK_DATABASE_URL, SOAK_SCHEMA, SOAK_TOKEN, SOAK_PORT } = process.env;
const server = await createServer({
  dataDir: await mkdtemp(join(tmpdir(), 'tessera-soak-')),
  store: await createPostgresStore({ connectionString: SOAK_DATABASE_URL, schema: SOAK_SCHEMA }),
  auth: { tokens: { [SOAK_TOKEN!]: 'soak' } },
  // Prompts as fast as one user can send them, for hours: what is soaked is the server, not its rate limits.
  rateLimits: false,
  plugins: [soakPlugin],
  defaultPlugins: false,
  model: soakModel,
  webDir: null,
});
const { url } = await server.listen({ port: Number(SOAK_PORT ?? 0) });
process.stdout.write(`${JSON.stringify({ url, pid: process.pid })}\n`);
process.on('SIGTERM', () => {
  void server.close({ graceMs: 100 }).then(() => process.exit(0));
});
