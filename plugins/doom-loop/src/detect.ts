import type { PromptOutput, ToolOutput } from '@tessera/core';

/** The longest cycle of calls looked for: a loop longer than this is not told from work. */
const MAX_PERIOD = 8;

/** Each call's key (the tool and the arguments it runs with, as canonical JSON), by recorded version of the call. */
export type CallKeys = WeakMap<ToolOutput, string>;

/**
 * The call's key, made once per recorded version of the call: outputs are frozen and replaced, never changed.
 * The arguments are those it runs with: a hook's or the approving user's edit, if any.
 */
function callKey(keys: CallKeys, call: ToolOutput): string {
  let key = keys.get(call);
  if (key === undefined) {
    const input = call.editedInput !== undefined ? call.editedInput : call.input;
    key = `${call.toolId} ${canonical(input)}`;
    keys.set(call, key);
  }
  return key;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Whether the prompt's latest calls repeat: the same call `repeats` times in a row, or the same cycle of
 * calls (A, B, A, B, ...) `repeats` times. Only calls after the last pause `isOwnPause` recognizes count: a
 * user who let the prompt continue is asked again after `repeats` more, never left without the check.
 * Returns what repeats, for the user.
 */
export function detectDoomLoop(
  outputs: readonly PromptOutput[],
  repeats: number,
  keys: CallKeys,
  isOwnPause: (output: PromptOutput & { type: 'pause' }) => boolean,
): string | undefined {
  // The latest calls, newest first: no more than the longest cycle looked for needs, read from the end.
  const calls: ToolOutput[] = [];
  for (let i = outputs.length - 1; i >= 0 && calls.length < MAX_PERIOD * repeats; i--) {
    const output = outputs[i]!;
    if (output.type === 'pause' && isOwnPause(output)) break;
    if (output.type === 'tool' && output.arguments === undefined) calls.push(output);
  }
  for (let period = 1; period * repeats <= calls.length; period++) {
    const span = period * repeats;
    // Tools first, arguments only then: most rounds differ in the tool, and cost no key at all.
    let repeating = true;
    for (let i = period; i < span && repeating; i++)
      repeating = calls[i]!.toolId === calls[i - period]!.toolId;
    for (let i = period; i < span && repeating; i++) {
      repeating = callKey(keys, calls[i]!) === callKey(keys, calls[i - period]!);
    }
    if (!repeating) continue;
    const cycle = calls.slice(0, period).reverse();
    // A run of one call repeated is found at period 1: a longer period made of it is not another cycle.
    if (period > 1 && cycle.every((call) => callKey(keys, call) === callKey(keys, cycle[0]!))) continue;
    return period === 1
      ? `The model called '${cycle[0]!.toolId}' with the same arguments ${repeats} times in a row.`
      : `The model repeated the same cycle of calls (${cycle.map((call) => call.toolId).join(', ')}) ${repeats} times.`;
  }
  return undefined;
}
