#!/usr/bin/env node
import { resolve } from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

const log = pino({ name: 'tessera' });

try {
  const config = loadConfig();
  const server = await startServer(config, { logger: log });
  const link = server.token ? `${server.url}/?token=${server.token}` : server.url;
  console.log(
    `\n  Tessera is running: ${link}\n  API reference: ${server.url}/docs\n  Model: ${server.model.label}\n`,
  );
  if (server.token)
    console.log(`  Your token (also in ${resolve(config.dataDir, 'local-token')}): ${server.token}\n`);
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
