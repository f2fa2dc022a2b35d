import { createRequire } from 'node:module';

/**
 * Loads a dependency when it is first needed rather than with the package: tsyringe, semver and the
 * OpenTelemetry API are a third of a cold import, and an app pays for each only once it creates a platform,
 * a plugin declares a core range, or a tracer is registered.
 */
export const lazyRequire = createRequire(import.meta.url);
