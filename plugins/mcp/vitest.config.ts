import { defineConfig } from 'vitest/config';

// These tests start real MCP servers (Node processes): generous timeouts for a busy 2-core CI.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 30_000 } });
