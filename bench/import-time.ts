// Cold import of @tessera/core: each sample a fresh Node process (the one running this), timing
// `await import('@tessera/core')` in wall-clock and CPU ms; median of `runs`. Node strips the TypeScript
// sources' types on every start unless its compile cache is on (`module.enableCompileCache()` or
// NODE_COMPILE_CACHE), so both are measured; the published package is built JavaScript, and needs neither.
// `node bench/import-time.ts [runs]`; also printed by `pnpm bench`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SNIPPET = `const c = process.cpuUsage(); const t = performance.now(); await import('@tessera/core');
const u = process.cpuUsage(c); console.log(JSON.stringify([performance.now() - t, (u.user + u.system) / 1000]));`;

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function sample(runs: number, env: NodeJS.ProcessEnv) {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', SNIPPET], {
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

export function importTime(runs = 20) {
  const { NODE_COMPILE_CACHE: _, ...env } = process.env;
  const plain = sample(runs, env);
  const cacheDir = mkdtempSync(join(tmpdir(), 'tessera-compile-cache-'));
  try {
    sample(1, { ...env, NODE_COMPILE_CACHE: cacheDir }); // fills the cache
    const cached = sample(runs, { ...env, NODE_COMPILE_CACHE: cacheDir });
    return { runs, plain, cached };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const r = importTime(Number(process.argv[2] ?? 20));
  console.log(
    `import @tessera/core, median of ${r.runs} fresh processes: ${r.plain.wallMs.toFixed(1)} ms wall, ${r.plain.cpuMs.toFixed(1)} ms CPU; with the compile cache ${r.cached.wallMs.toFixed(1)} ms wall, ${r.cached.cpuMs.toFixed(1)} ms CPU`,
  );
}
