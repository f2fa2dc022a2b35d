import type { EventRelay } from '@tessera/core';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.ts';

/**
 * The relay between the processes on one database, when `relayUrl` names a NATS server: undefined otherwise
 * (the store's own, PostgreSQL's LISTEN/NOTIFY, relays). Loaded only then, so a server without it loads none
 * of the NATS client.
 */
export async function openRelay(
  config: Pick<ServerConfig, 'relayUrl'>,
  log: Logger | undefined,
): Promise<(EventRelay & { close(): Promise<void> }) | undefined> {
  if (!config.relayUrl) return undefined;
  const { createNatsRelay } = await import('@tessera/relay-nats');
  const servers = config.relayUrl.split(',').map((url) => url.trim());
  try {
    return await createNatsRelay({
      servers,
      onError: (error) => log?.warn({ err: error }, 'the NATS relay failed to send or subscribe'),
    });
  } catch (error) {
    throw new Error(`The NATS relay at ${servers.join(', ')} is not reachable: ${String(error)}`, {
      cause: error,
    });
  }
}
