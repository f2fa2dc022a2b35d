import type * as OpenAISdk from 'openai';

let loaded: typeof OpenAISdk | undefined;

/**
 * The `openai` SDK, loaded with the first model call rather than with the package: an app that imports this
 * package but runs another model (or none yet) does not load its ~240 modules.
 */
export async function loadSdk(): Promise<typeof OpenAISdk> {
  loaded ??= await import('openai');
  return loaded;
}

/** The SDK if a call has loaded it; until then no error can be one of its classes. */
export const loadedSdk = (): typeof OpenAISdk | undefined => loaded;
