import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // PGlite's WebAssembly start and the child processes take seconds on a busy machine: the SIGKILL test
    // (two processes opening PGlite, then the test's store) took 11 s idle and over 30 s in a loaded CI run.
    // The limits guard against a hang only.
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
