#!/usr/bin/env node
import { resolve } from 'node:path';
import pino from 'pino';
import { ConfigError } from './config.ts';
import { createServer } from './create-server.ts';
import { loadConfig } from './load-config.ts';

const log = pino({ name: 'tessera' });

try {
  const { file, options } = await loadConfig();
  if (file) log.info({ file }, 'configuration read');
  const server = await createServer({ ...options, logger: log });
  const { url } = await server.listen();
  const link = server.token ? `${url}/?token=${server.token}` : url;
  console.log(
    `\n  Tessera is running: ${link}\n  API reference: ${url}/docs\n  Model: ${server.model.label}\n`,
  );
  if (server.token)
    console.log(`  Your token (also in ${resolve(options.dataDir, 'local-token')}): ${server.token}\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await server.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
