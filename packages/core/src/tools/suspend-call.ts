/** Marks what `suspendCall` returns, in every copy of this package: `Symbol.for` gives them all one symbol. */
const SUSPENSION = Symbol.for('tessera.call-suspension');

/** What a tool returns to make its call wait for a decision: see `suspendCall`. */
export type CallSuspension = { readonly [SUSPENSION]: true; readonly reason: string };

/**
 * Makes the tool's call wait, as a call that needs approval does, for something outside the loop: a
 * sub-agent waiting for the user, a person in another system, a webhook. Return it from `invoke`: the call is
 * recorded `pending` with `reason`, the prompt waits (`waiting_for_approval`) holding no process, and a
 * decision on the call resumes it in any process: `approve` runs the tool again (so make it idempotent: it
 * finds what it started and goes on from there, as a LangGraph node does after `interrupt()`; and declare
 * it `idempotent: true`, so that a crash while it runs has `recover()` run it again), `answer`
 * records a result without running it, `skip` and `reject` record an error. Whoever learns that what the
 * call waits for has happened decides it (`platform.decide(toolCallId, { userId, approve: true })`).
 *
 * Of read-only calls that run together, the first in the model's order that suspends waits; the others
 * that suspended run again once it is decided.
 *
 * @example
 * ```ts
 * invoke: async ({ input, toolCallId }) => {
 *   const job = await jobs.findOrStart(toolCallId, input);
 *   return job.done ? job.result : suspendCall(`Waiting for job ${job.id} to finish.`);
 * }
 * ```
 */
export function suspendCall(reason: string): CallSuspension {
  const text = typeof reason === 'string' ? reason.trim() : '';
  return Object.freeze({
    [SUSPENSION]: true as const,
    reason: text === '' ? 'Waiting.' : text.slice(0, 2_000),
  });
}

/** Whether a tool's return value is a `suspendCall()` (of this or another copy of @tessera/core). */
export const isCallSuspension = (value: unknown): value is CallSuspension =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SUSPENSION] === true;
