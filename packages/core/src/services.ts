// tsyringe needs the Reflect metadata API to exist before it loads; Tessera itself never uses decorators.
import 'reflect-metadata';
import { container, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { Platform } from './platform/platform.ts';
import type { Store } from './store/store.ts';

export type { DependencyContainer, InjectionToken };

/** Explicit injection tokens (no reflection): what the platform registers in its container. */
export const StoreToken: InjectionToken<Store> = Symbol.for('tessera.store');
export const PlatformToken: InjectionToken<Platform> = Symbol.for('tessera.platform');

/** A child of `parent` (default: tsyringe's root container), so each platform has its own services. */
export const createServiceContainer = (parent: DependencyContainer = container): DependencyContainer =>
  parent.createChildContainer();
