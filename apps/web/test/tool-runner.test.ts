import { describe, expect, it } from 'vitest';
import { initialArguments, takesArguments } from '../src/tools/initial-arguments.ts';

describe("the tool runner's form", () => {
  it('starts with the defaults and the first of each list of choices (the one the form shows)', () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        priority: { type: 'string', enum: ['low', 'high'] },
        count: { type: 'integer', default: 8 },
        notify: { type: 'boolean' },
      },
      required: ['title', 'priority'],
    };
    expect(initialArguments(schema)).toEqual({ priority: 'low', count: 8 });
    // Nested arguments are edited as JSON: only the defaults are filled in.
    const nested = { type: 'object', properties: { names: { type: 'array' }, mode: { enum: ['a'] } } };
    expect(initialArguments(nested)).toEqual({});
    expect(initialArguments(undefined)).toEqual({});
    // A field named as an Object.prototype key, from a schema sent as JSON, is an own field like any other.
    const hostile = JSON.parse(
      '{"properties":{"__proto__":{"default":{"polluted":true}},"constructor":{"default":1}}}',
    );
    const start = initialArguments(hostile);
    expect(Object.getPrototypeOf(start)).toBe(Object.prototype);
    expect(Object.hasOwn(start, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(start))).toEqual(
      JSON.parse('{"__proto__":{"polluted":true},"constructor":1}'),
    );
  });

  it('says when a tool takes no arguments', () => {
    expect(takesArguments({ type: 'object', properties: {} })).toBe(false);
    expect(takesArguments({ type: 'object', properties: {}, additionalProperties: {} })).toBe(true);
    expect(takesArguments({ type: 'object', properties: { a: { type: 'string' } } })).toBe(true);
  });
});
