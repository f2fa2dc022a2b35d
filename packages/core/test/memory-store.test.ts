import { describeStoreConformance } from '../../testing/src/store-conformance.ts';
import { MemoryStore } from '../src/index.ts';

describeStoreConformance('in-memory', () => new MemoryStore());
