import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  immutable,
  immutableJson,
  immutableOf,
  immutableOwn,
  immutableVersion,
} from '../src/store/frozen.ts';

const isDeepFrozen = (value: unknown): boolean =>
  typeof value !== 'object' ||
  value === null ||
  (Object.isFrozen(value) && Object.values(value).every((item) => isDeepFrozen(item)));

const jsonRoundTrip = (value: unknown) => {
  try {
    return { value: JSON.parse(JSON.stringify(value)) as unknown };
  } catch (error) {
    return { error: (error as Error).constructor };
  }
};

describe('frozen values (the record as the loop and the in-memory store keep it)', () => {
  it('immutable: a deeply frozen copy equal to structuredClone, which later changes to the original miss', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const original = structuredClone(value);
        const frozen = immutable(value);
        expect(frozen).toEqual(original);
        expect(isDeepFrozen(frozen)).toBe(true);
        expect(immutable(frozen)).toBe(frozen); // just made: passed on as it is
      }),
    );
    const input = { list: [{ a: 1 }], __proto__: null } as unknown as { list: { a: number }[] };
    const frozen = immutable(input);
    input.list[0]!.a = 2;
    expect(frozen.list[0]!.a).toBe(1);
    const parsed = immutable(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    const copy = immutable(cyclic);
    expect(copy.self).toBe(copy);
    expect(immutable({ when: new Date(0) }).when).toEqual(new Date(0));
    expect(() => immutable({ run: () => 1 })).toThrow(structuredCloneError(() => 1));
  });

  it('immutableOwn: freezes the object it is handed in place, and copies what it holds', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 }), (fields) => {
        const own = { ...fields };
        const frozen = immutableOwn(own);
        expect(frozen).toBe(own);
        expect(frozen).toEqual(structuredClone(fields));
        expect(isDeepFrozen(frozen)).toBe(true);
        for (const key of Object.keys(fields)) {
          if (typeof fields[key] === 'object' && fields[key] !== null)
            expect(frozen[key]).not.toBe(fields[key]);
        }
      }),
    );
  });

  it('immutableVersion: freezes a new version in place, sharing what it keeps of the last, copying what is new', () => {
    const fields = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 });
    fc.assert(
      fc.property(fields, fields, fc.boolean(), (before, changes, frozenBefore) => {
        const previous = frozenBefore ? immutable({ ...before }) : { ...before };
        const next = { ...previous, ...changes };
        const version = immutableVersion(next, previous);
        expect(version).toBe(next);
        expect(version).toEqual(structuredClone({ ...before, ...changes }));
        expect(isDeepFrozen(version)).toBe(true);
        for (const key of Object.keys(version)) {
          const item = (version as Record<string, unknown>)[key];
          if (typeof item !== 'object' || item === null) continue;
          // A value of the last version is shared only when that version was frozen; a new one is copied.
          if (key in changes) expect(item).not.toBe(changes[key]);
          else expect(item === previous[key]).toBe(frozenBefore);
        }
      }),
    );
  });

  it('immutableVersion: shares only what the last version holds as its own, never what it inherits', () => {
    const previous = immutable({ type: 'tool' });
    // A hostile own `__proto__` key (as JSON.parse makes one) whose value is what `previous` only inherits.
    const next: Record<string, unknown> = { ...previous };
    Object.defineProperty(next, '__proto__', {
      value: Object.prototype,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const version = immutableVersion(next, previous);
    expect(isDeepFrozen(version)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(version, '__proto__')?.value).not.toBe(Object.prototype);
    expect(Object.isFrozen(Object.prototype)).toBe(false);
  });

  it('immutableOf: freezes what it is handed in place, which is then passed on as it is', () => {
    const made = immutableOf({ type: 'success', output: immutableJson({ list: [1] }) });
    expect(isDeepFrozen(made)).toBe(true);
    expect(immutable(made)).toBe(made);
    const version = immutableVersion({ ...made, more: { n: 1 } }, made);
    expect(version.output).toBe(made.output);
    expect(isDeepFrozen(version)).toBe(true);
  });

  it('immutableJson: exactly what a JSON round trip gives (or throws), deeply frozen', () => {
    const weird = fc.oneof(
      fc.constantFrom(undefined, -0, Number.NaN, Number.POSITIVE_INFINITY, new Date(0), 10n, () => 1),
      fc.constant({ toJSON: () => 'custom' }),
      fc.constant(Object.assign(Object.create({ toJSON: () => 'inherited' }), { a: 1 })),
      fc.constant(Object.assign(new Array(3), { 0: 1, 2: 3 })), // a hole
      fc.constant(new Map([[1, 2]])),
      fc.constant(JSON.parse('{"__proto__": {"x": 1}}')),
    );
    const values = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        weird,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(values, (value) => {
        const expected = jsonRoundTrip(value);
        let actual: { value?: unknown; error?: unknown };
        try {
          actual = { value: immutableJson(value) };
        } catch (error) {
          actual = { error: (error as Error).constructor };
        }
        expect(actual).toEqual(expected);
        if ('value' in actual) {
          expect(isDeepFrozen(actual.value)).toBe(true);
          expect(JSON.stringify(actual.value)).toBe(JSON.stringify(expected.value)); // same keys, same order
        }
      }),
      { numRuns: 500 },
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => immutableJson(cyclic)).toThrow(TypeError);
  });
});

function structuredCloneError(value: unknown): string {
  try {
    structuredClone(value);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
