import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpPlugin } from '@tessera/plugin-mcp';
import { createServer } from '@tessera/server';
import { ScriptedModel } from '@tessera/testing';
import openapiTS, { astToString } from 'openapi-typescript';

/** The TypeScript types of the running server's OpenAPI document, as source text. */
export async function openApiTypes(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-openapi-'));
  // Every built-in plugin is in, and the MCP plugin (with no server), so every plugin route is in the document.
  const server = await createServer({
    dataDir,
    model: new ScriptedModel(),
    webDir: null,
    plugins: [mcpPlugin({ servers: {} })],
  });
  try {
    const document = await (await server.app.request('/openapi.json')).json();
    const ast = await openapiTS(document);
    return `// Generated from the server's OpenAPI document by scripts/generate-api-types.ts. Do not edit.\n${astToString(ast)}`;
  } finally {
    await server.close({ graceMs: 50 });
    await rm(dataDir, { recursive: true, force: true });
  }
}
