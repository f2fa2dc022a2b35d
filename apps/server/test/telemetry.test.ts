import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reply } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTelemetry, tracingRequested } from '../src/telemetry.ts';
import { testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const read = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};

describe('OpenTelemetry from OTEL_* variables', () => {
  it('is on only when an exporter or an OTLP endpoint is named', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toBe(
      false,
    );
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracingRequested({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toBe(
      false,
    );
  });

  it("exports a prompt's spans over OTLP to the collector the variables name", async () => {
    const received: { path?: string; body: string }[] = [];
    const collector = createServer(async (request, response) => {
      received.push({ path: request.url, body: await read(request) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    // The SDK reads the variables from the process's environment, as it does in production.
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `http://127.0.0.1:${port}`);
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json');
    vi.stubEnv('OTEL_SERVICE_NAME', 'tessera-test');
    const telemetry = await startTelemetry();
    expect(telemetry).toBeDefined();
    try {
      t = await testServer([reply('Hello.', { usage: { inputTokens: 42, outputTokens: 3 } })]);
      const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
      const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
        body: { input: 'Hi' },
      });
      await vi.waitFor(
        async () =>
          expect((await t!.request('GET', `/api/prompts/${sent.body.prompt.id}`)).body.state).toBe(
            'completed',
          ),
        { timeout: 30_000 },
      );
    } finally {
      await telemetry!.shutdown(); // flushes what is batched
      collector.close();
      vi.unstubAllEnvs();
    }
    const traces = received
      .filter((r) => r.path === '/v1/traces')
      .map((r) => r.body)
      .join('\n');
    expect(traces).toContain('invoke_agent tessera');
    expect(traces).toContain('chat ');
    expect(traces).toContain('gen_ai.usage.input_tokens');
    expect(traces).toContain('tessera-test');
  });
});
