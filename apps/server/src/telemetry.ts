/**
 * OpenTelemetry for the server, from the standard `OTEL_*` environment variables: tracing is on when they
 * name an exporter (`OTEL_TRACES_EXPORTER`, other than `none`) or an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`). The SDK is imported only then, so
 * a server without them loads none of it; @tessera/telemetry's spans stay no-ops.
 */
export type Telemetry = { shutdown(): Promise<void> };

export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter) return exporter !== 'none';
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Starts the SDK when the process's environment asks for tracing (the SDK reads the same variables). */
export async function startTelemetry(): Promise<Telemetry | undefined> {
  const env = process.env;
  if (!tracingRequested(env)) return undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  // The SDK reads the OTEL_* variables itself: exporter, endpoint, headers, sampler, service name, resource.
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'tessera-server',
    // Only traces: metrics and logs exporters are not configured unless their own variables ask for them.
    instrumentations: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
