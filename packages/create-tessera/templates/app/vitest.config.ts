import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The app's test starts a real server on an embedded PostgreSQL database: generous timeouts.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // loadConfig has Node import tessera.config.ts: Node 22.12 to 22.17 strip its types only when asked to.
    execArgv: process.features.typescript
      ? []
      : ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'],
  },
});
