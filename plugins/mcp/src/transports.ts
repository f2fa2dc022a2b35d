import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import manifest from '../package.json' with { type: 'json' };
import type { ServerSettings } from './options.ts';

/** The transport a connection uses. */
export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

/** A connected client, with what the status shows of its transport. */
export type OpenClient = { client: Client; kind: TransportKind; pid?: number };

/** The last lines a stdio server wrote to stderr: why it failed, usually. */
export class StderrTail {
  #text = '';
  push(chunk: Buffer | string) {
    this.#text = (this.#text + chunk.toString()).slice(-2_000);
  }
  /** The last non-empty line, for an error message. */
  lastLine(): string | undefined {
    return this.#text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1)
      ?.slice(-300);
  }
}

/** The transport a server is configured for, before a connection says which one it got. */
export const configuredKind = (settings: ServerSettings): TransportKind =>
  settings.command !== undefined ? 'stdio' : settings.type === 'sse' ? 'sse' : 'streamable-http';

/** What the status shows of where a server is: the command, or the URL without its query (which may hold a key). */
export function targetOf(settings: ServerSettings): string {
  if (settings.command !== undefined) return settings.command;
  const url = new URL(settings.url!);
  return `${url.origin}${url.pathname}`;
}

/**
 * The SDK's client and transports, loaded with the first connection: an app with no MCP server configured
 * never loads them (nor the JSON Schema validator they bring), ~150 modules and several MB of an idle server.
 */
const loadSdk = async () => {
  const [{ Client }, { SSEClientTransport }, { StdioClientTransport }, streamable] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  return { Client, SSEClientTransport, StdioClientTransport, ...streamable };
};
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** A 4xx answer to the first POST: the server has no Streamable HTTP endpoint there, so try the older SSE. */
const wantsSse = ({ StreamableHTTPError }: Sdk, error: unknown) =>
  error instanceof StreamableHTTPError &&
  typeof error.code === 'number' &&
  error.code >= 400 &&
  error.code < 500;

/**
 * Starts a server (stdio) or reaches it (HTTP) and initializes the MCP session. `http` tries Streamable HTTP
 * and falls back to SSE when the server answers 4xx, as the MCP specification advises for servers that only
 * have the older transport.
 */
export async function openClient(
  settings: ServerSettings,
  options: { timeoutMs: number; signal: AbortSignal; stderr: StderrTail },
): Promise<OpenClient> {
  const sdk = await loadSdk();
  const { SSEClientTransport, StdioClientTransport, StreamableHTTPClientTransport } = sdk;
  const connect = async (transport: Transport, kind: TransportKind): Promise<OpenClient> => {
    const client = new sdk.Client({ name: 'tessera', title: 'Tessera', version: manifest.version });
    try {
      await client.connect(transport, { timeout: options.timeoutMs, signal: options.signal });
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
    const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    return { client, kind, ...(pid !== undefined && { pid }) };
  };
  if (settings.command !== undefined) {
    const transport = new StdioClientTransport({
      command: settings.command,
      args: settings.args,
      env: settings.env,
      ...(settings.cwd !== undefined && { cwd: settings.cwd }),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => options.stderr.push(chunk));
    return connect(transport, 'stdio');
  }
  const url = new URL(settings.url!);
  const requestInit = { headers: settings.headers };
  if (settings.type === 'sse') return connect(new SSEClientTransport(url, { requestInit }), 'sse');
  try {
    return await connect(new StreamableHTTPClientTransport(url, { requestInit }), 'streamable-http');
  } catch (error) {
    if (!wantsSse(sdk, error) || options.signal.aborted) throw error;
    return connect(new SSEClientTransport(url, { requestInit }), 'sse');
  }
}
