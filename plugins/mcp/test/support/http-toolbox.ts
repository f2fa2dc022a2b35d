// The toolbox MCP server (fixtures/toolbox.ts) over Streamable HTTP, served in the test's own process: the
// official SDK's server transport on node:http, one toolbox per session, as a remote server runs it.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createToolbox } from '../fixtures/toolbox.ts';

type Options = {
  /** Numbered tools beside grow, shrink, wait and cancellations. */
  tools?: number;
  /** `false`: the server does not declare `tools.listChanged` (its initialize result says nothing of it). */
  listChanged?: boolean;
};

/**
 * Notifications the server sends outside a request (`notifications/tools/list_changed` goes on the GET stream)
 * are held until `deliverHeld()`. Over Streamable HTTP they may land after the call's result, and after the next
 * round is prepared, or not at all (a server without the GET stream); holding them makes that so every time.
 * `requests(method)` counts what the client asked; after `refuseLists()`, listing the tools fails.
 */
export async function httpToolbox({ tools = 0, listChanged = true }: Options = {}) {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const held: (() => Promise<void>)[] = [];
  const received: string[] = [];
  let refusingLists = false;

  const open = async () => {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    await createToolbox(tools).connect(transport);
    const receive = transport.onmessage!;
    const send = transport.send.bind(transport);
    transport.onmessage = (message, extra) => {
      if ('method' in message) received.push(message.method);
      if (refusingLists && 'id' in message && 'method' in message && message.method === 'tools/list') {
        const error = { code: ErrorCode.InternalError, message: 'Listing is down.' };
        void send({ jsonrpc: '2.0', id: message.id, error }, { relatedRequestId: message.id });
        return;
      }
      receive(message, extra);
    };
    transport.send = async (message, options) => {
      if (isUnrelatedNotification(message, options?.relatedRequestId)) {
        held.push(() => send(message, options));
        return;
      }
      if (!listChanged) withoutListChanged(message);
      await send(message, options);
    };
    return transport;
  };

  const http = createServer((request, response) => {
    const id = request.headers['mcp-session-id'];
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    const transport = session ?? (request.method === 'POST' ? open() : undefined);
    if (!transport) {
      response.writeHead(404).end();
      return;
    }
    void Promise.resolve(transport).then((t) => t.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    /** Sends the notifications held so far. */
    deliverHeld: () => Promise.all(held.splice(0).map((deliver) => deliver())).then(() => {}),
    /** From now on, `tools/list` is answered with an error. */
    refuseLists: () => {
      refusingLists = true;
    },
    /** How many requests of `method` the server got. */
    requests: (method: string) => received.filter((m) => m === method).length,
    stop: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

const isUnrelatedNotification = (message: JSONRPCMessage, relatedRequestId: unknown) =>
  relatedRequestId === undefined && 'method' in message && !('id' in message);

/** Strips `tools.listChanged` from an initialize result. */
function withoutListChanged(message: JSONRPCMessage) {
  const result = 'result' in message ? (message.result as { capabilities?: { tools?: object } }) : undefined;
  if (result?.capabilities?.tools) result.capabilities.tools = {};
}
