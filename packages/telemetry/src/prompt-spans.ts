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
 * store are theirs to trace. Returns the function that stops it.
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
      event.type === 'prompt.completed' ||
      event.type === 'prompt.failed' ||
      event.type === 'prompt.cancelled'
    )
      tracePrompt(event.prompt, platform.model.id);
  });
}

/**
 * Emits a prompt's spans when it ends, from its record (the same facts as its run report): `invoke_agent
 * tessera` for the prompt, under it `chat {model}` for each model call and `execute_tool {tool}` for each
 * tool call that ran, with the OpenTelemetry GenAI semantic conventions' attributes and the recorded start
 * and end times. Without an SDK the first span does not record and nothing else is computed.
 */
export function tracePrompt(prompt: Prompt, provider: string): void {
  const otel = loadApi();
  if (!otel) return;
  const { SpanKind, SpanStatusCode, context, trace } = otel;
  const start = Date.parse(prompt.createdAt);
  const root = tracer.startSpan('invoke_agent tessera', { kind: SpanKind.INTERNAL, startTime: start });
  if (!root.isRecording()) {
    root.end();
    return;
  }
  const report = promptReport(prompt);
  root.setAttributes({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'tessera',
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
  for (const call of report.toolCalls) toolSpan(call, parent);
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

function toolSpan(call: ToolCallReport, parent: Context): void {
  if (call.startedAt === undefined) return; // never ran: rejected, denied, or not run
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
  span.end(call.endedAt ? Date.parse(call.endedAt) : undefined);
}

function failed(span: Span, type: string, message: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: api!.SpanStatusCode.ERROR, message });
}
