import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Core's own tests use @tessera/testing (which depends on core) and a fixture plugin package; they are
// aliased rather than declared, so the workspace graph stays free of cycles.
export default defineConfig({
  resolve: {
    alias: {
      '@tessera/testing': fileURLToPath(new URL('../testing/src/index.ts', import.meta.url)),
      '@tessera-fixtures/badges': fileURLToPath(
        new URL('./test/fixtures/badges/src/index.ts', import.meta.url),
      ),
    },
  },
  // Property tests run hundreds of cases: on a loaded CI machine they need more than vitest's 5 s default
  // (and an expect.poll more than its 1 s).
  test: { include: ['test/**/*.test.ts'], testTimeout: 30_000, expect: { poll: { timeout: 30_000 } } },
});
