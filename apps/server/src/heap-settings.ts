/**
 * The V8 heap settings the server runs with. Node's defaults size the heap for throughput on a machine of
 * its own: under load a young generation of 2 × 64 MB, and an old generation allowed to grow to a few times
 * what is live before a full collection, which left a server holding ~70 MB of live objects at 400-550 MB
 * resident. A 16 MB semi-space and an old generation that grows by 25% over what is live keep it near 250 MB
 * at a similar CPU cost (docs/scaling.md, "Memory").
 */
export const HEAP_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=25'] as const;

/**
 * glibc's malloc settings, read once when a process starts. By default each thread that allocates may get
 * an arena of its own (up to 8 per core); Node's helper threads (V8's garbage collector and compiler, libuv's
 * pool) each left free memory behind in theirs, ~10-40 MB of the server's resident memory under load. Two
 * arenas, as for the JVM and Ruby servers that set it, cost no measurable CPU here. Other C libraries (musl)
 * ignore the variable; child processes the server starts inherit it.
 */
export const MALLOC_SETTINGS = { MALLOC_ARENA_MAX: '2' } as const;

/** The flags of `HEAP_FLAGS` that neither the command line nor NODE_OPTIONS sets (whatever their value). */
export function missingHeapFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = [...execArgv, ...(nodeOptions?.split(/\s+/) ?? [])].map((arg) =>
    arg.split('=')[0]!.replaceAll('_', '-'),
  );
  return HEAP_FLAGS.filter((flag) => !given.includes(flag.split('=')[0]!));
}

/** The variables of `MALLOC_SETTINGS` the environment does not set (whatever their value), on Linux. */
export function missingMallocSettings(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  if (platform !== 'linux') return {};
  return Object.fromEntries(Object.entries(MALLOC_SETTINGS).filter(([name]) => env[name] === undefined));
}

/**
 * Runs this process again in place (`process.execve`: the same pid, stdio and environment) with the heap
 * flags and malloc settings it lacks, before anything is loaded; V8 and glibc read them only when the process
 * starts. Nothing happens when every one is set (so this runs once), with `TESSERA_NODE_HEAP=default` (Node's
 * and the C library's own sizing), or where Node cannot replace a process (Windows, a Node without `execve`).
 */
export function restartWithHeapSettings(env: NodeJS.ProcessEnv = process.env): void {
  if (env.TESSERA_NODE_HEAP === 'default' || process.platform === 'win32') return;
  if (typeof process.execve !== 'function') return;
  const missing = missingHeapFlags(process.execArgv, env.NODE_OPTIONS);
  const malloc = missingMallocSettings(env);
  if (missing.length === 0 && Object.keys(malloc).length === 0) return;
  process.execve(
    process.execPath,
    [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)],
    { ...env, ...malloc },
  );
}
