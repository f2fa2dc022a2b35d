// @vitest-environment node
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { openApiTypes } from '../scripts/openapi-types.ts';

it('the typed API client matches the server’s OpenAPI document (run `pnpm --filter @tessera/web generate:api`)', async () => {
  const committed = readFileSync(new URL('../src/api-types.ts', import.meta.url), 'utf8');
  expect(committed).toBe(await openApiTypes());
});
