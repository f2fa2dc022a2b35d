import type { Output, Prompt } from './api.ts';

export type ServerEvent = {
  type: string;
  promptId: string;
  /** The event's conversation: another one's for a sub-agent's prompt running for this one's call. */
  conversationId?: string;
  prompt?: Prompt;
  output?: Output;
  outputId?: string;
  delta?: string;
  state?: Prompt['state'];
  /** `message.*` and `prompt.steered`: the waiting message (see waiting-messages.ts). */
  message?: { id: string; mode: 'steer' | 'queue'; input: string; createdAt: string };
  messageId?: string;
  /** `prompt.pause-decided` */
  choice?: 'continue' | 'stop';
  decidedBy?: string;
};

/** The prompts of a conversation, and the text still streaming (by the id its output will have). */
export type ConversationState = { prompts: Prompt[]; streaming: Record<string, string> };

const update = (
  state: ConversationState,
  promptId: string,
  change: (prompt: Prompt) => Prompt,
): ConversationState => ({
  ...state,
  prompts: state.prompts.map((prompt) => (prompt.id === promptId ? change(prompt) : prompt)),
});

/** Applies one server event to the conversation: the UI's copy of the record follows the server's. */
export function applyEvent(state: ConversationState, event: ServerEvent): ConversationState {
  switch (event.type) {
    case 'prompt.started':
      if (!event.prompt || state.prompts.some((p) => p.id === event.promptId)) return state;
      return { ...state, prompts: [...state.prompts, event.prompt] };
    case 'prompt.output': {
      const output = event.output!;
      const { [output.id]: _, ...streaming } = state.streaming;
      return update({ ...state, streaming }, event.promptId, (prompt) =>
        prompt.output.some((o) => o.id === output.id)
          ? prompt
          : { ...prompt, output: [...prompt.output, output] },
      );
    }
    case 'prompt.output-updated':
      return update(state, event.promptId, (prompt) => ({
        ...prompt,
        output: prompt.output.map((o) => (o.id === event.output!.id ? event.output! : o)),
      }));
    // What a call emitted before a crash, taken out when the call is run again.
    case 'prompt.output-removed':
      return update(state, event.promptId, (prompt) => ({
        ...prompt,
        output: prompt.output.filter((o) => o.id !== event.outputId),
      }));
    case 'prompt.text-delta':
      return {
        ...state,
        streaming: {
          ...state.streaming,
          [event.outputId!]: (state.streaming[event.outputId!] ?? '') + event.delta,
        },
      };
    case 'prompt.approval-requested':
    case 'prompt.pause-requested':
      return update(state, event.promptId, (prompt) => ({ ...prompt, state: 'waiting_for_approval' }));
    case 'prompt.pause-decided':
      return update(state, event.promptId, (prompt) => ({
        ...prompt,
        output: prompt.output.map((o) =>
          o.id === event.outputId ? { ...o, decision: event.choice, decidedBy: event.decidedBy } : o,
        ),
      }));
    case 'prompt.resumed':
      return update(state, event.promptId, (prompt) => ({ ...prompt, state: 'running' }));
    case 'prompt.completed':
    case 'prompt.failed':
    case 'prompt.cancelled':
      return update(state, event.promptId, () => event.prompt!);
    default:
      return state;
  }
}
