import { defineConfig } from 'vitest/config';

// These tests start real servers (an embedded PostgreSQL each): generous timeouts for a busy 2-core CI.
export default defineConfig({ test: { testTimeout: 90_000, hookTimeout: 90_000 } });
