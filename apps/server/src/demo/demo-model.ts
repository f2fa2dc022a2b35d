import type { ModelMessage, ModelProvider, ModelRequest, ModelStreamEvent } from '@tessera/core';
import { type Attachment, acknowledge, parseAttachment } from './attachments.ts';
import { SLOW_EXAMPLES, slowAnswer, streamSlowly } from './slow-answers.ts';

/**
 * One thing the demo model knows how to do: when the input matches, call `tool` with these arguments; `say`
 * puts what the tool returned into a sentence (undefined when the result is not of the shape it knows).
 */
export type DemoRule = {
  tool: string;
  /** Shown in the model's list of what it can do. */
  example: string;
  match: RegExp;
  args: (input: string, match: RegExpMatchArray) => Record<string, unknown>;
  say?: (output: unknown) => string | undefined;
};

export type DemoModelOptions = {
  /** Between two numbers of a slow count (two words of a slow text take half): 600 ms, about 20 s an answer. */
  slowStepMs?: number;
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
 * The files the user attached are user messages of their own, after the input: the input is the user message
 * before them.
 */
function currentTurn(messages: readonly ModelMessage[]) {
  const calling = new Set<string | undefined>();
  for (const message of messages) if (message.type === 'function_call') calling.add(message.responseId);
  const isBoundary = (message: ModelMessage) =>
    message.type === 'message' &&
    (message.role === 'user' || (message.responseId !== undefined && !calling.has(message.responseId)));
  let start = messages.length;
  while (start > 0 && !isBoundary(messages[start - 1]!)) start--;
  const files: Attachment[] = [];
  let input: string | undefined;
  for (let i = start - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.type !== 'message' || message.role !== 'user') break;
    const file = parseAttachment(message.content);
    if (!file) {
      input = message.content;
      break;
    }
    files.unshift(file);
  }
  return { input, files, since: messages.slice(start) };
}

/** A tool's output as the model reads it (JSON, else text). */
function parsed(output: string): unknown {
  try {
    return JSON.parse(output);
  } catch {
    return output;
  }
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
 * against rules for the tools it is offered, calls one tool, then says in a sentence what the tool returned.
 * It answers slowly when asked to (to try Stop, Steer and Queue), and says which files were attached. What it
 * does not match, it says so and lists what it can do. It never pretends to understand anything else.
 */
export class DemoModel implements ModelProvider {
  readonly id = 'demo';
  readonly label = DEMO_LABEL;
  readonly #rules: readonly DemoRule[];
  readonly #slowStepMs: number;

  constructor(rules: readonly DemoRule[], { slowStepMs = 600 }: DemoModelOptions = {}) {
    this.#rules = rules;
    this.#slowStepMs = slowStepMs;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    signal.throwIfAborted();
    const offered = new Set(request.tools.map((tool) => tool.name));
    const rules = this.#rules.filter((rule) => offered.has(rule.tool));
    const { input, files, since } = currentTurn(request.messages);
    const results = since.filter((m) => m.type === 'function_call_output');
    const usage = { inputTokens: Math.ceil(JSON.stringify(request.messages).length / 4), outputTokens: 20 };
    const fired = firedTrigger(request.instructions);

    if (fired) {
      // A trigger's turn has no input, and this model calls no tool in it: nothing before is its own.
      yield* words(reminder(fired));
    } else if (input === undefined && files.length === 0) {
      // No input: results after the last answer belong to an earlier prompt that ended without one.
      yield* words('There is no message from you in this prompt, so I have nothing to do.');
    } else if (results.length > 0) {
      yield* words(this.#report(since, files));
    } else {
      const read = (input ?? '').slice(0, DEMO_READS);
      const slow = slowAnswer(read);
      if (slow) {
        if (files.length > 0) yield* words(`${acknowledge(files)}\n\n`);
        yield* streamSlowly(slow, this.#slowStepMs, signal);
        yield { type: 'usage', usage };
        yield { type: 'finish', reason: 'stop' };
        return;
      }
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
      yield* words(files.length > 0 && !/\bhelp\b/i.test(read) ? this.#onlyFiles(files) : this.#help(rules));
    }
    yield { type: 'usage', usage };
    yield { type: 'finish', reason: 'stop' };
  }

  /** What the tools returned, a sentence each (after what the user attached, if anything). */
  #report(since: readonly ModelMessage[], files: readonly Attachment[]): string {
    const lines = since.flatMap((message) => {
      if (message.type !== 'function_call_output') return [];
      const call = since.find((m) => m.type === 'function_call' && m.callId === message.callId);
      const name = call?.type === 'function_call' ? call.name : 'the tool';
      if (message.output.startsWith('Error: ')) {
        return /did not approve/.test(message.output)
          ? [`You did not approve ${name}, so I did not do it.`]
          : [`${name} failed: ${message.output.slice(7)}`];
      }
      const said = this.#rules.find((rule) => rule.tool === name)?.say?.(parsed(message.output));
      if (said) return [said];
      const output = message.output.length > 300 ? `${message.output.slice(0, 300)}…` : message.output;
      return [`${name} answered: ${output}`];
    });
    return [...(files.length > 0 ? [acknowledge(files)] : []), ...lines].join('\n\n');
  }

  #onlyFiles(files: readonly Attachment[]): string {
    return `${acknowledge(files)}\n\nI am the offline demo model: I can tell what you attached, not what it means. Say "help" to see what I can do.`;
  }

  #help(rules: readonly DemoRule[]): string {
    const can = [...rules.map((rule) => rule.example), ...SLOW_EXAMPLES]
      .map((line) => `- ${line}`)
      .join('\n');
    return [
      'I am the offline demo model: I follow simple rules and understand nothing else.',
      `Try one of these:\n${can}`,
      'Attach a file and I tell you its name, type and size, and how a text file starts.',
      'Configure OPENAI_API_KEY to talk to a real model.',
    ].join('\n\n');
  }
}
