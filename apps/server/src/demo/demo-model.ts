import type { ModelMessage, ModelProvider, ModelRequest, ModelStreamEvent } from '@tessera/core';

/** One thing the demo model knows how to do: when the input matches, call `tool` with these arguments. */
export type DemoRule = {
  tool: string;
  /** Shown in the model's list of what it can do. */
  example: string;
  match: RegExp;
  args: (input: string, match: RegExpMatchArray) => Record<string, unknown>;
};

export const DEMO_LABEL = 'Demo model (offline, rule-based)';

/**
 * How much of a message the rules read: what they look for is a short phrase, and a rule's regular expression
 * over a whole long input could cost more than linear time.
 */
export const DEMO_READS = 2_000;

/**
 * The part of the messages that belongs to the prompt being answered. Messages carry no prompt boundaries: a
 * prompt begins after the last user message or after the last answer that ended a prompt (text of a response
 * with no call: this model never writes text and calls a tool in one response), whichever comes later. So a
 * prompt with no input, as a trigger starts, begins after the answer to the prompt before it, and has no input.
 */
function currentTurn(messages: readonly ModelMessage[]) {
  const calling = new Set<string | undefined>();
  for (const message of messages) if (message.type === 'function_call') calling.add(message.responseId);
  const isBoundary = (message: ModelMessage) =>
    message.type === 'message' &&
    (message.role === 'user' || (message.responseId !== undefined && !calling.has(message.responseId)));
  let start = messages.length;
  while (start > 0 && !isBoundary(messages[start - 1]!)) start--;
  const boundary = messages[start - 1];
  return {
    input: boundary?.type === 'message' && boundary.role === 'user' ? boundary.content : undefined,
    since: messages.slice(start),
  };
}

/** In a turn a trigger started: the trigger's name and instruction, from the context the triggers plugin gives. */
function firedTrigger(instructions: string) {
  const match = /^Trigger: “(.*)” \(\S+\), .*\r?\nInstruction: (.+)$/m.exec(instructions);
  return match && { name: match[1]!, instruction: match[2]!.trim() };
}

/** What to say when a trigger fires: the reminder itself, or the instruction this model cannot carry out. */
function reminder({ name, instruction }: { name: string; instruction: string }): string {
  const task = /^remind (?:the user|me) to (.+?)[.!]*$/i.exec(instruction)?.[1];
  if (task) return `Reminder: time to ${task}.`;
  return `The trigger “${name}” fired. Its instruction: ${instruction}\n\n(I am the offline demo model: I can pass it on, not carry it out.)`;
}

function* words(text: string): Generator<ModelStreamEvent> {
  for (const chunk of text.match(/\S+\s*/g) ?? [text]) yield { type: 'text-delta', delta: chunk };
}

/**
 * A small, honest, rule-based model for trying Tessera without a network. It matches the user's words
 * against rules for the tools it is offered, calls one tool, then reports what the tool returned. What it
 * does not match, it says so and lists what it can do. It never pretends to understand anything else.
 */
export class DemoModel implements ModelProvider {
  readonly id = 'demo';
  readonly label = DEMO_LABEL;
  readonly #rules: readonly DemoRule[];

  constructor(rules: readonly DemoRule[]) {
    this.#rules = rules;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    signal.throwIfAborted();
    const offered = new Set(request.tools.map((tool) => tool.name));
    const rules = this.#rules.filter((rule) => offered.has(rule.tool));
    const { input, since } = currentTurn(request.messages);
    const results = since.filter((m) => m.type === 'function_call_output');
    const usage = { inputTokens: Math.ceil(JSON.stringify(request.messages).length / 4), outputTokens: 20 };
    const fired = firedTrigger(request.instructions);

    if (fired) {
      // A trigger's turn has no input, and this model calls no tool in it: nothing before is its own.
      yield* words(reminder(fired));
    } else if (input === undefined) {
      // No input: results after the last answer belong to an earlier prompt that ended without one.
      yield* words('There is no message from you in this prompt, so I have nothing to do.');
    } else if (results.length > 0) {
      yield* words(this.#report(since));
    } else {
      const read = input.slice(0, DEMO_READS);
      const hit = rules.map((rule) => ({ rule, match: read.match(rule.match) })).find((r) => r.match);
      if (hit?.match) {
        yield {
          type: 'tool-call',
          callId: `demo_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`,
          name: hit.rule.tool,
          arguments: JSON.stringify(hit.rule.args(read, hit.match)),
        };
        yield { type: 'usage', usage };
        yield { type: 'finish', reason: 'tool_calls' };
        return;
      }
      yield* words(this.#help(rules));
    }
    yield { type: 'usage', usage };
    yield { type: 'finish', reason: 'stop' };
  }

  #report(since: readonly ModelMessage[]): string {
    const lines = since.flatMap((message) => {
      if (message.type !== 'function_call_output') return [];
      const call = since.find((m) => m.type === 'function_call' && m.callId === message.callId);
      const name = call?.type === 'function_call' ? call.name : 'the tool';
      if (message.output.startsWith('Error: ')) {
        return /did not approve/.test(message.output)
          ? [`You did not approve ${name}, so I did not do it.`]
          : [`${name} failed: ${message.output.slice(7)}`];
      }
      return [
        `${name} returned: ${message.output.length > 300 ? `${message.output.slice(0, 300)}…` : message.output}`,
      ];
    });
    return `${lines.join('\n')}\n\n(I am the offline demo model: I only report what the tools returned.)`;
  }

  #help(rules: readonly DemoRule[]): string {
    const can = rules.map((rule) => `- ${rule.example}`).join('\n');
    return [
      'I am the offline demo model: I follow simple rules and understand nothing else.',
      can ? `Try one of these:\n${can}` : 'No tools are available right now.',
      'Configure OPENAI_API_KEY to talk to a real model.',
    ].join('\n\n');
  }
}
