import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { describeRelayConformance } from '@tessera/testing/relay-conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsRelay } from '../src/index.ts';

/** The machine's NATS server. These tests fail (never skip) when it is down: `.ci/run` starts it. */
const NATS_URL = process.env.TESSERA_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * A TCP proxy on 127.0.0.1 to the NATS server, so that a test can cut a relay's connection as a network
 * would: `cut()` destroys every connection through it, and the clients reconnect through it.
 */
function natsProxy() {
  const target = new URL(NATS_URL);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let url = '';
  beforeAll(async () => {
    server = createServer((client) => {
      const upstream = tcpConnect(Number(target.port || 4222), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    url = `nats://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });
  return {
    get url() {
      return url;
    },
    cut() {
      for (const socket of sockets) socket.destroy();
    },
  };
}

const proxy = natsProxy();
// Every suite run on a subject prefix of its own: runs on one NATS server do not meet.
const subjectPrefix = `test.${randomUUID().slice(0, 8)}`;

describeRelayConformance('NATS', {
  open: () => createNatsRelay({ servers: proxy.url, subjectPrefix }),
  disconnect: async () => proxy.cut(),
});

describe('the NATS relay', () => {
  it('refuses a subject prefix that is not plain tokens, and needs a server', async () => {
    await expect(createNatsRelay({ servers: NATS_URL, subjectPrefix: 'a.*' })).rejects.toThrow(/prefix/);
    await expect(createNatsRelay({})).rejects.toThrow(/servers/);
  });
});
