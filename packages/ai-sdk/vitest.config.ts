import { defineConfig } from 'vitest/config';

// expect.poll's default of 1 s is shorter than a local server's round trip on a loaded CI machine.
export default defineConfig({ test: { expect: { poll: { timeout: 30_000 } } } });
