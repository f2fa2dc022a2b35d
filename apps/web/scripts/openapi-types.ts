import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerConfig } from '@tessera/server/config';
import { startServer } from '@tessera/server/server';
import { ScriptedModel } from '@tessera/testing';
import openapiTS, { astToString } from 'openapi-typescript';

/** The TypeScript types of the running server's OpenAPI document, as source text. */
export async function openApiTypes(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-openapi-'));
  const server = await startServer(ServerConfig.parse({ port: 0, dataDir }), {
    model: new ScriptedModel(),
    webDir: null,
  });
  try {
    const document = await (await fetch(`${server.url}/openapi.json`)).json();
    const ast = await openapiTS(document);
    return `// Generated from the server's OpenAPI document by scripts/generate-api-types.ts. Do not edit.\n${astToString(ast)}`;
  } finally {
    await server.close({ graceMs: 50 });
    await rm(dataDir, { recursive: true, force: true });
  }
}
