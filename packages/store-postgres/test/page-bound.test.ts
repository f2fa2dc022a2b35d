import { pageBudgetConformance } from '@tessera/testing/store-conformance';
import { afterEach } from 'vitest';
import type { PostgresStore } from '../src/index.ts';
import { describeEachDriver } from './support/each-driver.ts';

describeEachDriver('a page of conversations', (open) => {
  const stores: PostgresStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  pageBudgetConformance(async (pagePromptIds) => {
    const store = await open({ pagePromptIds });
    stores.push(store);
    return store;
  });
});
