import { defineConfig } from 'vitest/config';

// The test starts a real server on an embedded PostgreSQL: generous timeouts for a busy 2-core CI.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 30_000 } });
