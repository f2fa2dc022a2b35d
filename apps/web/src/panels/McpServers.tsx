import { useCallback, useEffect, useState } from 'react';
import type { Api, McpServer } from '../api.ts';

/** Servers connect, die and come back in the background: their states are read again this often. */
const REFRESH_MS = 10_000;

const BADGES: Record<McpServer['state'], string> = {
  connected: 'badge badge-success',
  connecting: 'badge badge-pending',
  reconnecting: 'badge badge-error',
  stopped: 'badge',
  disabled: 'badge',
};

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The app's MCP servers (the MCP plugin): each one's state, transport, tools and prompts, and what went wrong. */
export function McpServers({ api, version }: { api: Api; version: number }) {
  const [servers, setServers] = useState<McpServer[]>([]);
  const load = useCallback(() => api.mcpServers().then(setServers, () => {}), [api]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` changes when a prompt ends: reload then
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load, version]);
  return (
    <section>
      <h2>MCP servers</h2>
      {servers.length === 0 && <p className="empty">None configured.</p>}
      <ul>
        {servers.map((server) => (
          <li key={server.name} className="mcp-server">
            <strong>{server.name}</strong> <span className={BADGES[server.state]}>{server.state}</span>
            <span className="muted">
              {server.server?.title ?? server.server?.name ?? server.target} · {server.transport}
              {server.tools.length > 0 && ` · ${count(server.tools.length, 'tool')}`}
              {server.prompts.length > 0 && ` · ${count(server.prompts.length, 'prompt')}`}
              {server.resources && ' · resources'}
            </span>
            {server.error && <span className="mcp-error">{server.error}</span>}
            {server.prompts.length > 0 && (
              <span className="muted" title="Ask for one by name">
                Prompts: {server.prompts.map((prompt) => prompt.name).join(', ')}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
