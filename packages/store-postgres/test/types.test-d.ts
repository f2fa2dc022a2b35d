// Type-level tests: checked by `tsc` in this package's typecheck task (tsconfig.json includes test/); Vitest
// does not run this file (it matches *.test.ts only).
import type { PGlite } from '@electric-sql/pglite';
import { describe, expectTypeOf, it } from 'vitest';
import type { PgliteDatabase, PostgresStoreOptions } from '../src/index.ts';

describe('the pglite option', () => {
  it("takes PGlite's own instances, though the public types never name PGlite's", () => {
    expectTypeOf<PGlite>().toExtend<PgliteDatabase>();
    expectTypeOf<PostgresStoreOptions['pglite']>().toEqualTypeOf<PgliteDatabase | undefined>();
  });
});
