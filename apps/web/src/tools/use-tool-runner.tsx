import { type ReactNode, useCallback, useState } from 'react';
import type { Api } from '../api.ts';
import { type ToolRun, ToolRunner } from './ToolRunner.tsx';

/**
 * The tool runner of a conversation: `show` opens its dialog (the composer's wrench), `dialog` is what to
 * render. It closes after a run, calling `onRan`, and chooses that run's tool and arguments when it opens again.
 */
export function useToolRunner(
  api: Api,
  conversationId: string,
  onRan: () => void,
): { show: () => void; dialog: ReactNode } {
  const [state, setState] = useState<{ open: boolean; last?: ToolRun }>({ open: false });
  const show = useCallback(() => setState((current) => ({ ...current, open: true })), []);
  const dialog = state.open ? (
    <ToolRunner
      api={api}
      conversationId={conversationId}
      last={state.last}
      onClose={() => setState((current) => ({ ...current, open: false }))}
      onRan={(run) => {
        setState({ open: false, last: run });
        onRan();
      }}
    />
  ) : null;
  return { show, dialog };
}
