// Regenerates src/api-types.ts from the server's OpenAPI document: `node scripts/generate-api-types.ts`.
// test/api-types.test.ts fails when the committed file is out of date.
import { writeFileSync } from 'node:fs';
import { openApiTypes } from './openapi-types.ts';

writeFileSync(new URL('../src/api-types.ts', import.meta.url), await openApiTypes());
console.log('wrote src/api-types.ts');
