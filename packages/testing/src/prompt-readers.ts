import type {
  AnyOutputVariant,
  OutputOf,
  Prompt,
  PromptOutput,
  PromptOutputType,
  PromptOutputTypes,
  Tool,
  ToolErrorInfo,
  ToolOutput,
} from '@tessera/core';

/*
 * Readers of a prompt's record for tests: each returns the one thing a test asserts on, or throws an error
 * that lists what the prompt holds instead, so a failing test says what happened.
 */

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const json = (value: unknown) => clip(JSON.stringify(value) ?? String(value), 200);

/** How a tool call stands: its result, or whether it is still queued or running. */
function outcomeOf(call: ToolOutput): string {
  const result = call.result;
  if (!result) return call.startedAt ? 'running' : 'queued';
  if (result.type === 'success') return `success ${json(result.output)}`;
  if (result.type === 'error') return `error ${json(result.error)}`;
  return `pending (${result.reason})`;
}

const COMMON_FIELDS = new Set(['type', 'id', 'createdAt', 'toolCallId']);

function describeOutput(output: PromptOutput): string {
  if (output.type === 'text') return `text ${json(output.text)}`;
  if (output.type === 'tool') {
    return `tool ${output.toolId} ${json(output.input)} → ${outcomeOf(output)} [${output.id}]`;
  }
  const own = Object.entries(output).filter(([key]) => !COMMON_FIELDS.has(key));
  return `${output.type} ${json(Object.fromEntries(own))}`;
}

/** The prompt's state and outputs, one per line: what the errors of these readers show. */
export function describePrompt(prompt: Prompt): string {
  const lines = prompt.output.map((output, index) => `  ${index}: ${describeOutput(output)}`);
  const stopped = prompt.stopReason ? ` (${json(prompt.stopReason)})` : '';
  return `Prompt ${prompt.id} is ${prompt.state}${stopped}, with ${prompt.output.length} outputs${lines.length ? `:\n${lines.join('\n')}` : '.'}`;
}

const isTool = (output: PromptOutput): output is ToolOutput => output.type === 'tool';

/**
 * The prompt's tool call that waits for approval (of tool `toolId`, when given). Throws, listing the
 * prompt's outputs, unless there is exactly one.
 */
export function pendingCall(prompt: Prompt, toolId?: string): ToolOutput {
  const pending = prompt.output.filter(
    (o): o is ToolOutput =>
      isTool(o) && o.result?.type === 'pending' && (toolId === undefined || o.toolId === toolId),
  );
  if (pending.length === 1) return pending[0]!;
  const which = toolId === undefined ? 'tool call' : `call of '${toolId}'`;
  const found =
    pending.length === 0
      ? 'none'
      : `${pending.length} (choose by tool id, or read them with outputsOf(prompt, 'tool'))`;
  throw new Error(`Expected one ${which} waiting for approval, found ${found}.\n${describePrompt(prompt)}`);
}

// biome-ignore lint/suspicious/noExplicitAny: a tool of any input and state, typed by its result
type ToolOf<TResult> = Tool<any, any, TResult>;

/**
 * What the prompt's only call of a tool returned (its `success` output). Throws, listing the prompt's
 * outputs, when the tool was not called exactly once or did not succeed. Given the tool itself rather than
 * its id, the result is typed by the tool.
 */
export function toolResult<TResult>(prompt: Prompt, tool: ToolOf<TResult>): TResult;
export function toolResult(prompt: Prompt, toolId: string): unknown;
export function toolResult(prompt: Prompt, tool: string | ToolOf<unknown>): unknown {
  const call = onlyCall(prompt, tool);
  if (call.result?.type !== 'success') {
    throw new Error(
      `The call of '${call.toolId}' did not succeed: ${outcomeOf(call)}.\n${describePrompt(prompt)}`,
    );
  }
  return call.result.output;
}

/**
 * The error the prompt's only call of a tool ended with (its `error` result: `{ code, message }` as Tessera
 * records it, e.g. `tool_failed`, `rejected`, `invalid_arguments`). Throws, listing the prompt's outputs,
 * when the tool was not called exactly once or did not fail.
 */
export function toolError(prompt: Prompt, tool: string | ToolOf<unknown>): ToolErrorInfo {
  const call = onlyCall(prompt, tool);
  if (call.result?.type !== 'error') {
    throw new Error(
      `The call of '${call.toolId}' did not fail: ${outcomeOf(call)}.\n${describePrompt(prompt)}`,
    );
  }
  return call.result.error as ToolErrorInfo;
}

/** The prompt's only call of a tool, or an error listing the prompt's outputs. */
function onlyCall(prompt: Prompt, tool: string | ToolOf<unknown>): ToolOutput {
  const toolId = typeof tool === 'string' ? tool : tool.id;
  const calls = prompt.output.filter((o): o is ToolOutput => isTool(o) && o.toolId === toolId);
  const call = calls[0];
  if (calls.length !== 1 || !call) {
    throw new Error(
      `Expected one call of '${toolId}', found ${calls.length}` +
        `${calls.length > 1 ? `; read them with outputsOf(prompt, 'tool')` : ''}.\n${describePrompt(prompt)}`,
    );
  }
  return call;
}

/**
 * The prompt's outputs of one variant, in order, typed by it: name a registered type (`'text'`, `'tool'`,
 * `'widget'`, ...) or pass the variant `defineOutput` made.
 */
export function outputsOf<K extends PromptOutputType>(prompt: Prompt, type: K): PromptOutputTypes[K][];
export function outputsOf<V extends AnyOutputVariant>(prompt: Prompt, variant: V): OutputOf<V>[];
export function outputsOf(prompt: Prompt, variant: string | AnyOutputVariant): PromptOutput[] {
  const type = typeof variant === 'string' ? variant : variant.type;
  return prompt.output.filter((output) => output.type === type);
}
