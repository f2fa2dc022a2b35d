import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { Platform, Prompt } from '@tessera/core';
import { type ModelCallReport, promptReport, type ToolCallReport } from '@tessera/reports';
import manifest from '../package.json' with { type: 'json' };

/** Where every copy of the OpenTelemetry API 1.x keeps what an app registered (its tracer provider first). */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');
let api: typeof OtelApi | undefined;
/** Through the API's global provider: a no-op until an app registers an SDK, then that SDK's tracer. */
let tracer: Tracer;

/**
 * The API, loaded once an app has registered anything with it; before, nothing to trace. Loaded when first
 * needed rather than with the package, so that an app that never turns tracing on never pays for it.
 */
function loadApi(): typeof OtelApi | undefined {
  if (!api && REGISTRY in globalThis) {
    api = createRequire(import.meta.url)('@opentelemetry/api') as typeof OtelApi;
    tracer = api.trace.getTracer(manifest.name, manifest.version);
  }
  return api;
}

/**
 * Traces every prompt the platform runs in this process: when one ends (completed, failed or cancelled),
 * its spans are emitted from its record (see `tracePrompt`). Prompts run by other processes that share the
 * store are theirs to trace. A sub-agent's prompt (one a tool ran for its call: the agents plugin's
 * `agent-run` output names it) is traced inside the prompt that called it, under the call's `execute_tool`
 * span, when that prompt ends, read from the store in whichever process it ran. Returns the function that
 * stops it.
 *
 * @example
 * ```ts
 * const platform = createPlatform({ model, store });
 * const untrace = tracePrompts(platform); // spans once an app registers an OpenTelemetry SDK
 * ```
 */
export function tracePrompts(platform: Platform): () => void {
  return platform.events.subscribe({ local: true }, (event) => {
    if (
      event.type !== 'prompt.completed' &&
      event.type !== 'prompt.failed' &&
      event.type !== 'prompt.cancelled'
    )
      return;
    const { prompt } = event;
    if (isSubAgent(prompt) || !loadApi()) return;
    const provider = platform.model.id;
    if (!prompt.output.some(childRunOf)) return tracePrompt(prompt, provider);
    // What it delegated is read first; the spans are emitted however that read ends.
    return subRuns(platform, prompt).then(
      (children) => tracePrompt(prompt, provider, children),
      () => tracePrompt(prompt, provider),
    );
  });
}

/** The most sub-agent prompts read to trace one prompt, all depths together. */
const MAX_TRACED_SUB_RUNS = 200;

/** An output a tool emitted naming the prompt it ran for the call: the agents plugin's `agent-run`. */
type ChildRun = { toolCallId: string; promptId: string };
function childRunOf(output: { type: string }): ChildRun | undefined {
  const { toolCallId, promptId } = output as Partial<ChildRun>;
  if (output.type !== 'agent-run' || typeof toolCallId !== 'string' || typeof promptId !== 'string')
    return undefined;
  return { toolCallId, promptId };
}

/** A sub-agent's prompt: its metadata names the agent and the call that ran it. */
const isSubAgent = (prompt: Prompt): boolean =>
  typeof prompt.metadata?.agent === 'string' &&
  typeof (prompt.metadata.parent as { toolCallId?: unknown } | undefined)?.toolCallId === 'string';

/** The prompts run for `prompt`'s calls, at every depth, by the call that ran each (bounded). */
async function subRuns(platform: Platform, prompt: Prompt): Promise<SubRuns> {
  const children: Map<string, Prompt[]> = new Map();
  let queue: Prompt[] = [prompt];
  let read = 0;
  while (queue.length > 0 && read < MAX_TRACED_SUB_RUNS) {
    const next: Prompt[] = [];
    for (const parent of queue) {
      for (const output of parent.output) {
        const run = childRunOf(output);
        if (!run || read >= MAX_TRACED_SUB_RUNS) continue;
        read++;
        const child = await platform.getPrompt(run.promptId, parent.userId).catch(() => undefined);
        if (!child) continue;
        children.set(run.toolCallId, [...(children.get(run.toolCallId) ?? []), child]);
        next.push(child);
      }
    }
    queue = next;
  }
  return children;
}

/** Sub-agent prompts by the id of the tool call that ran them. */
export type SubRuns = ReadonlyMap<string, readonly Prompt[]>;

/**
 * Emits a prompt's spans when it ends, from its record (the same facts as its run report): `invoke_agent
 * tessera` for the prompt, under it `chat {model}` for each model call and `execute_tool {tool}` for each
 * tool call that ran, with the OpenTelemetry GenAI semantic conventions' attributes and the recorded start
 * and end times. Without an SDK the first span does not record and nothing else is computed.
 */
export function tracePrompt(prompt: Prompt, provider: string, subRuns?: SubRuns, under?: Context): void {
  const otel = loadApi();
  if (!otel) return;
  const { SpanKind, SpanStatusCode, context, trace } = otel;
  const start = Date.parse(prompt.createdAt);
  const agent = typeof prompt.metadata?.agent === 'string' ? prompt.metadata.agent : 'tessera';
  const root = tracer.startSpan(
    `invoke_agent ${agent}`,
    { kind: SpanKind.INTERNAL, startTime: start },
    under ?? context.active(),
  );
  if (!root.isRecording()) {
    root.end();
    return;
  }
  const report = promptReport(prompt);
  root.setAttributes({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': agent,
    'gen_ai.provider.name': provider,
    'gen_ai.conversation.id': prompt.conversationId,
    'gen_ai.usage.input_tokens': report.totals.inputTokens,
    'gen_ai.usage.output_tokens': report.totals.outputTokens,
    'tessera.prompt.id': prompt.id,
    'tessera.prompt.state': prompt.state,
    'tessera.prompt.stop': report.stop,
    'tessera.prompt.model_calls': report.totals.modelCalls,
    'tessera.prompt.tool_calls': report.totals.toolCalls,
  });
  if (prompt.state === 'failed') {
    root.setAttribute('error.type', report.stop);
    root.setStatus({ code: SpanStatusCode.ERROR, message: prompt.stopReason?.message ?? report.stop });
  }
  const parent = trace.setSpan(context.active(), root);
  for (const call of report.modelCalls) modelSpan(call, provider, prompt.model, parent);
  for (const call of report.toolCalls) {
    const span = toolSpan(call, parent);
    // What the call ran as a sub-agent nests under it: invoke_agent under execute_tool.
    const under = span && trace.setSpan(parent, span);
    for (const child of (under && subRuns?.get(call.id)) || []) tracePrompt(child, provider, subRuns, under);
    span?.end(call.endedAt ? Date.parse(call.endedAt) : undefined);
  }
  root.end(report.endedAt ? Date.parse(report.endedAt) : undefined);
}

function modelSpan(call: ModelCallReport, provider: string, modelClass: string, parent: Context): void {
  const model = call.model ?? modelClass;
  const attributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': provider,
    'gen_ai.request.model': model,
    'gen_ai.response.id': call.responseId,
    'gen_ai.usage.input_tokens': call.inputTokens,
    'gen_ai.usage.output_tokens': call.outputTokens,
    'gen_ai.usage.cache_read.input_tokens': call.cachedInputTokens,
    'tessera.model_class': modelClass,
  };
  if (call.finishReason) attributes['gen_ai.response.finish_reasons'] = [call.finishReason];
  if (call.timeToFirstTokenMs !== undefined)
    attributes['tessera.time_to_first_token_ms'] = call.timeToFirstTokenMs;
  if (call.cost !== undefined) attributes['tessera.cost'] = call.cost;
  const span = tracer.startSpan(
    `chat ${model}`,
    { kind: api!.SpanKind.CLIENT, startTime: Date.parse(call.startedAt), attributes },
    parent,
  );
  // No finish reason: the stream failed before the model said why it stopped.
  if (!call.finishReason) failed(span, 'model_error', 'The model call failed.');
  span.end(Date.parse(call.endedAt));
}

/** The span of a call that ran, not yet ended (what it ran as a sub-agent goes under it first). */
function toolSpan(call: ToolCallReport, parent: Context): Span | undefined {
  if (call.startedAt === undefined) return undefined; // never ran: rejected, denied, or not run
  const span = tracer.startSpan(
    `execute_tool ${call.toolId}`,
    {
      kind: api!.SpanKind.INTERNAL,
      startTime: Date.parse(call.startedAt),
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.toolId,
        'gen_ai.tool.call.id': call.callId,
        'gen_ai.tool.type': 'function',
        'tessera.tool.outcome': call.outcome,
        'tessera.tool.result_bytes': call.resultBytes,
      },
    },
    parent,
  );
  if (call.outcome === 'error' || call.outcome === 'not_run')
    failed(
      span,
      call.errorCode ?? call.outcome,
      `The tool call ended with ${call.errorCode ?? call.outcome}.`,
    );
  return span;
}

function failed(span: Span, type: string, message: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: api!.SpanStatusCode.ERROR, message });
}
