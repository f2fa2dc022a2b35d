import type { DependencyContainer, InjectionToken } from 'tsyringe';
import { lazyRequire } from '../lazy-require.ts';
import type { Platform } from '../plugins/define-plugin.ts';
import type { Store } from '../store/store.ts';

export type { DependencyContainer, InjectionToken };

/** Explicit injection tokens (no reflection): what the platform registers in its container. */
export const StoreToken: InjectionToken<Store> = Symbol.for('tessera.store');
export const PlatformToken: InjectionToken<Platform> = Symbol.for('tessera.platform');

let root: DependencyContainer | undefined;

/** tsyringe's root container, loaded with the first platform (see lazy-require.ts). */
function rootContainer(): DependencyContainer {
  if (!root) {
    // tsyringe needs the Reflect metadata API to exist before it loads; Tessera itself never uses decorators.
    lazyRequire('reflect-metadata');
    root = (lazyRequire('tsyringe') as typeof import('tsyringe')).container;
  }
  return root;
}

/** A child of `parent` (default: tsyringe's root container), so each platform has its own services. */
export const createServiceContainer = (parent?: DependencyContainer): DependencyContainer =>
  (parent ?? rootContainer()).createChildContainer();
