import { createRequire } from 'node:module';

/**
 * Loads a dependency when it is first needed rather than with the package: tsyringe and semver are a
 * large part of a cold import, and an app pays for each only once it creates a platform or a plugin
 * declares a core range.
 */
export const lazyRequire = createRequire(import.meta.url);
