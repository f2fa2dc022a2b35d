import { defineConfig } from 'vitest/config';

// A goal runs several prompts in a row: on a loaded 2-core machine that can take longer than vitest's 5 s.
export default defineConfig({ test: { testTimeout: 60_000 } });
