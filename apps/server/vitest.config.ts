import { defineConfig } from 'vitest/config';

// These tests start real servers (an embedded PostgreSQL each): a test took 27 s of a 30 s limit in a loaded
// 2-core CI run. The limits guard against a hang only, so they are generous (expect.poll's default is 1 s).
export default defineConfig({
  test: { testTimeout: 90_000, hookTimeout: 90_000, expect: { poll: { timeout: 30_000 } } },
});
