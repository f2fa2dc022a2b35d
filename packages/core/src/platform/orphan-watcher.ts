import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Looks for prompts whose process died, every `intervalMs` until `signal` aborts, so that a live process
 * resumes them without waiting for a restart. One check at a time; a check that fails is reported and the
 * next one runs as planned. Its timer never keeps the process alive. Resolves once it stopped (after the
 * check in progress, if any); at once for an interval of 0.
 */
export async function watchOrphans(
  check: () => Promise<void>,
  intervalMs: number,
  report: (error: unknown) => void,
  signal: AbortSignal,
): Promise<void> {
  if (!(intervalMs > 0)) return;
  while (await sleep(intervalMs, true, { signal, ref: false }).catch(() => false)) {
    // A reporter that throws must not stop the checks.
    await check()
      .catch(report)
      .catch(() => {});
  }
}
