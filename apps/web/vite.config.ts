import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  // The dev server forwards the server's routes: same origin, so the session cookie works as in production.
  server: {
    proxy: Object.fromEntries(
      ['/api', '/docs', '/openapi.json', '/health'].map((path) => [path, 'http://127.0.0.1:3000']),
    ),
  },
  test: {
    environment: 'happy-dom',
    include: ['test/**/*.test.{ts,tsx}'],
    globalSetup: ['test/support/build-ui.ts'],
    // A hang guard only: a browser test on a loaded CI machine (two turbo tasks on two cores) runs several times
    // slower than alone, and stop 38's CI failed in this package with no test output kept.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll's default of 1 s is shorter than a page's round trip to its server on a loaded CI machine.
    expect: { poll: { timeout: 30_000 } },
  },
});
