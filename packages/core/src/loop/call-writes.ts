import { ConflictError } from '../errors.ts';
import type { PluginState } from '../model/plugin-state.ts';
import type { ToolInputBase } from '../plugins/define-plugin.ts';

type Writable = Omit<ToolInputBase, 'signal'>;

/**
 * A tool call's input, with its ways to write (emit, update, its plugin's state) closed once the call has its
 * result (`settled`). A tool that outlives its call (it ignored its signal after a timeout or a cancel) must
 * not add to a record that already says how the call ended: its writes then throw, and nothing is written.
 */
export function callInput(
  base: Writable,
  toolId: string,
  signal: AbortSignal,
  settled: () => boolean,
): ToolInputBase {
  const refuse = (what: string) => {
    if (settled()) {
      throw new ConflictError(
        `The call ${base.toolCallId} of '${toolId}' already has its result, so it can no longer ${what}.`,
      );
    }
  };
  const state: PluginState<unknown> = {
    get: () => base.state.get(),
    set: async (value) => {
      refuse('write its plugin state');
      return base.state.set(value);
    },
    update: async (change) => {
      refuse('write its plugin state');
      return base.state.update(change);
    },
  };
  // Made in one copy (its own signal in it).
  return {
    ...base,
    state,
    emit: async (output) => {
      refuse('emit outputs');
      return base.emit(output);
    },
    update: async (outputId, output) => {
      refuse('update outputs');
      return base.update(outputId, output);
    },
    signal,
  };
}
