import type { PromptOutput, ToolOutput } from '../model/outputs.ts';
import { runInput } from './approval.ts';

/** A call as the loop detector compares them: the tool and its arguments, as canonical JSON. */
const callKey = (call: ToolOutput): string => `${call.toolId} ${canonical(runInput(call))}`;

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
 * calls (A, B, A, B, ...) `repeats` times. Only calls after the last doom-loop pause count: a user who let the
 * prompt continue is asked again after `repeats` more, never left without the check. Returns what repeats,
 * for the user.
 */
export function detectDoomLoop(outputs: readonly PromptOutput[], repeats: number): string | undefined {
  const keys: string[] = [];
  const tools: string[] = [];
  for (const output of outputs) {
    if (output.type === 'pause' && output.source === 'doom_loop') {
      keys.length = 0;
      tools.length = 0;
    } else if (output.type === 'tool' && output.arguments === undefined) {
      keys.push(callKey(output));
      tools.push(output.toolId);
    }
  }
  for (let period = 1; period * repeats <= keys.length; period++) {
    const tail = keys.length - period * repeats;
    let repeating = true;
    for (let i = tail + period; i < keys.length && repeating; i++) repeating = keys[i] === keys[i - period];
    if (!repeating) continue;
    const cycle = tools.slice(keys.length - period);
    if (period > 1 && new Set(keys.slice(keys.length - period)).size === 1) continue; // a run, found at 1
    return period === 1
      ? `The model called '${cycle[0]}' with the same arguments ${repeats} times in a row.`
      : `The model repeated the same cycle of calls (${cycle.join(', ')}) ${repeats} times.`;
  }
  return undefined;
}
