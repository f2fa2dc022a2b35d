import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ModelMessage, ModelProvider, ModelRequest, ModelStreamEvent } from '@tessera/core';
import { z } from 'zod';
import { ConfigError } from './config.ts';

/**
 * A model a config names by a file of rules (`model: { script: './turns.json' }`), for trying plugins without
 * an API key: each rule says, for input that matches `when`, which tool to call and what to answer.
 */

/** How much of the input a rule's `when` reads: a rule's expression over a long input could cost more than linear time. */
export const SCRIPT_READS = 2_000;

const isRegExp = (source: string) => {
  try {
    new RegExp(source, 'iu');
    return true;
  } catch {
    return false;
  }
};

const ScriptCall = z.strictObject({
  /** The tool's id, as plugins define it (e.g. `tickets.create`). */
  tool: z.string().min(1),
  /** Its arguments; `$1` or `$<name>` in a string is replaced by that group of `when`'s match. */
  input: z.record(z.string(), z.unknown()).default({}),
});

export const ScriptRule = z
  .strictObject({
    /** A regular expression (JavaScript syntax, case-insensitive) searched in the user's input; none: any input. */
    when: z.string().refine(isRegExp, { message: 'not a valid regular expression' }).optional(),
    /** Call a tool first; the rule's `reply` comes once its result is back. */
    call: ScriptCall.optional(),
    /** The answer. After a call, without `reply`: what the tools returned. */
    reply: z.string().optional(),
  })
  .refine((rule) => rule.call !== undefined || rule.reply !== undefined, {
    message: 'a rule needs "reply", "call" or both',
  });
export type ScriptRule = z.input<typeof ScriptRule>;

/** The file: its rules, tried in order for each prompt (the first whose `when` matches the input answers). */
export const ModelScript = z.array(ScriptRule).min(1, 'the script needs at least one rule');

type Rule = z.output<typeof ScriptRule>;
type Call = z.output<typeof ScriptCall>;

/**
 * JSON with comments (`//`, `/* *\/`) and trailing commas, as editors write a `.jsonc` (or a commented
 * `.json`): the comments and those commas are removed, strings left as they are.
 */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      out += text.slice(i, end < 0 ? text.length : end + 2).replace(/[^\n]/g, ' ');
      i = end < 0 ? text.length : end + 1;
    } else out += char;
  }
  return out.replace(/,(\s*[\]}])/g, '$1');
}

/**
 * The model a script file describes. A file that cannot be read, is not JSON (with comments) or does not match
 * the rules' shape is a ConfigError naming the file and each problem.
 */
export async function loadModelScript(file: string): Promise<ModelProvider> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read the model script ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new ConfigError(`The model script ${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = ModelScript.safeParse(value);
  if (!parsed.success) {
    throw new ConfigError(`Invalid model script ${file}:\n${z.prettifyError(parsed.error)}`);
  }
  return new ScriptModel(parsed.data, `Scripted model (${basename(file)})`);
}

/**
 * The prompt being answered: its input, and what came after it. A prompt begins after the last user message,
 * or after the last answer that ended a prompt (text of a response without calls), whichever is later: a
 * prompt a trigger started has no input.
 */
function currentTurn(messages: readonly ModelMessage[]) {
  const calling = new Set<string | undefined>();
  for (const message of messages) if (message.type === 'function_call') calling.add(message.responseId);
  let start = messages.length;
  for (; start > 0; start--) {
    const message = messages[start - 1]!;
    if (message.type !== 'message') continue;
    if (message.role === 'user' || (message.responseId !== undefined && !calling.has(message.responseId)))
      break;
  }
  const boundary = messages[start - 1];
  const input = boundary?.type === 'message' && boundary.role === 'user' ? boundary.content : '';
  return { input, since: messages.slice(start) };
}

/** `$1`, `$<name>` (and `$$` for a dollar) replaced by the match's groups; an unknown group by nothing. */
function substitute(text: string, match: RegExpExecArray | null): string {
  return text.replace(/\$(\$|\d+|<([^>]+)>)/g, (_, what: string, name: string | undefined) => {
    if (what === '$') return '$';
    const group = name === undefined ? match?.[Number(what)] : match?.groups?.[name];
    return group ?? '';
  });
}

function substituteAll(value: unknown, match: RegExpExecArray | null): unknown {
  if (typeof value === 'string') return substitute(value, match);
  if (Array.isArray(value)) return value.map((item) => substituteAll(item, match));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteAll(v, match)]));
  return value;
}

function* words(text: string): Generator<ModelStreamEvent> {
  for (const chunk of text.match(/\S+\s*/g) ?? [text]) yield { type: 'text-delta', delta: chunk };
}

/** What the tools of this prompt returned, in a line each: the answer of a rule that called without `reply`. */
function results(since: readonly ModelMessage[]): string {
  const names = new Map<string, string>();
  for (const m of since) if (m.type === 'function_call') names.set(m.callId, m.name);
  return since
    .flatMap((m) => {
      if (m.type !== 'function_call_output') return [];
      const output = m.output.length > 500 ? `${m.output.slice(0, 500)}…` : m.output;
      return [`${names.get(m.callId) ?? 'The tool'} returned: ${output}`];
    })
    .join('\n\n');
}

/** The script as a model provider: one rule's call, then its reply, per prompt. */
export class ScriptModel implements ModelProvider {
  readonly id = 'scripted';
  readonly label: string;
  readonly #rules: readonly { rule: Rule; pattern: RegExp | undefined }[];
  #calls = 0;

  constructor(rules: readonly Rule[], label = 'Scripted model') {
    this.#rules = rules.map((rule) => ({
      rule,
      pattern: rule.when === undefined ? undefined : new RegExp(rule.when, 'iu'),
    }));
    this.label = label;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    signal.throwIfAborted();
    const { input, since } = currentTurn(request.messages);
    const read = input.slice(0, SCRIPT_READS);
    const usage = { inputTokens: Math.ceil(JSON.stringify(request.messages).length / 4), outputTokens: 20 };
    const { hit, match } = this.#ruleFor(read);
    const answered = since.some((m) => m.type === 'function_call_output');
    if (hit?.rule.call && !answered) {
      yield this.#toolCall(hit.rule.call, match);
      yield { type: 'usage', usage };
      yield { type: 'finish', reason: 'tool_calls' };
      return;
    }
    const text = hit
      ? hit.rule.reply !== undefined
        ? substitute(hit.rule.reply, match)
        : results(since)
      : this.#noRule(read);
    yield* words(text || '(no answer)');
    yield { type: 'usage', usage };
    yield { type: 'finish', reason: 'stop' };
  }

  /** The first rule whose `when` matches the input (or that has none), with the match. */
  #ruleFor(input: string): { hit?: { rule: Rule }; match: RegExpExecArray | null } {
    for (const hit of this.#rules) {
      const match = hit.pattern ? hit.pattern.exec(input) : null;
      if (!hit.pattern || match) return { hit, match };
    }
    return { match: null };
  }

  #toolCall(call: Call, match: RegExpExecArray | null): ModelStreamEvent {
    return {
      type: 'tool-call',
      callId: `script_${++this.#calls}_${Math.random().toString(36).slice(2, 8)}`,
      name: call.tool,
      arguments: JSON.stringify(substituteAll(call.input, match)),
    };
  }

  #noRule(input: string): string {
    const whens = this.#rules.flatMap(({ rule }) => (rule.when === undefined ? [] : [`/${rule.when}/`]));
    const shown = input.length > 80 ? `${input.slice(0, 80)}…` : input;
    return `No rule of the script (${this.label}) matches “${shown}”. Its rules answer: ${whens.join(', ')}.`;
  }
}
