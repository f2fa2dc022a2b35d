import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // PGlite's WebAssembly start and the child processes take seconds on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
