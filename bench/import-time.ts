// Cold import of @tessera/core: each sample a fresh Node process (the one running this), timing
// `await import('@tessera/core')` in wall-clock and CPU ms; median of `runs`. Node strips the TypeScript
// sources' types on every start unless its compile cache is on (`module.enableCompileCache()` or
// NODE_COMPILE_CACHE), so both are measured; the published package is built JavaScript, and needs neither.
// The built package (`tsc -p packages/core/tsconfig.build.json`, into packages/core/dist) is measured too: what
// a user of the npm package imports. `node bench/import-time.ts [runs]`; also printed by `pnpm bench`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const snippet = (specifier: string) => `const c = process.cpuUsage(); const t = performance.now();
await import(${JSON.stringify(specifier)}); const u = process.cpuUsage(c);
console.log(JSON.stringify([performance.now() - t, (u.user + u.system) / 1000]));`;
const core = new URL('../packages/core/', import.meta.url);

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function sample(runs: number, env: NodeJS.ProcessEnv, specifier = '@tessera/core') {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', snippet(specifier)], {
      cwd: import.meta.dirname, // a package that depends on @tessera/core
      env,
      encoding: 'utf8',
    });
    const [w, c] = JSON.parse(out) as [number, number];
    wall.push(w);
    cpu.push(c);
  }
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

const tsc = new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname;

export function importTime(runs = 20) {
  const { NODE_COMPILE_CACHE: _, ...env } = process.env;
  const plain = sample(runs, env);
  const cacheDir = mkdtempSync(join(tmpdir(), 'tessera-compile-cache-'));
  try {
    sample(1, { ...env, NODE_COMPILE_CACHE: cacheDir }); // fills the cache
    const cached = sample(runs, { ...env, NODE_COMPILE_CACHE: cacheDir });
    // What `pnpm --filter @tessera/core build` makes, as the package is published.
    execFileSync(process.execPath, [tsc, '-p', new URL('tsconfig.build.json', core).pathname]);
    const built = sample(runs, env, new URL('dist/index.js', core).href);
    return { runs, plain, cached, built };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const r = importTime(Number(process.argv[2] ?? 20));
  console.log(
    `import @tessera/core, median of ${r.runs} fresh processes: ${r.plain.wallMs.toFixed(1)} ms wall, ${r.plain.cpuMs.toFixed(1)} ms CPU from the sources; with the compile cache ${r.cached.wallMs.toFixed(1)} ms wall, ${r.cached.cpuMs.toFixed(1)} ms CPU; built (dist) ${r.built.wallMs.toFixed(1)} ms wall, ${r.built.cpuMs.toFixed(1)} ms CPU`,
  );
}
