import { MemoryStore, type Store } from '@tessera/core';
import type { ServerConfig } from './config.ts';

/** The store for this configuration. */
export async function createStore(_config: ServerConfig): Promise<Store> {
  return new MemoryStore();
}
