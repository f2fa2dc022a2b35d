import { describe, expect, it } from 'vitest';
import { applySets, parseInputOption, parseSetOptions } from '../src/approve-input.ts';

describe('approve --set', () => {
  it('reads values as JSON when they parse, else as strings', () => {
    expect(
      parseSetOptions(['amount=50', 'to=Ada', 'ok=true', 'tags=["a"]', 'id="50"', 'note=a=b', 'empty=']),
    ).toEqual([
      ['amount', 50],
      ['to', 'Ada'],
      ['ok', true],
      ['tags', ['a']],
      ['id', '50'],
      ['note', 'a=b'],
      ['empty', ''],
    ]);
    expect(() => parseSetOptions(['=5'])).toThrow('--set takes key=value');
  });

  it("changes the fields named, keeps the others, and makes '__proto__' a field", () => {
    const edited = applySets(
      { amount: 500, to: 'Ada' },
      parseSetOptions(['amount=50', '__proto__={"admin":true}']),
    );
    expect(JSON.stringify(edited)).toBe('{"amount":50,"to":"Ada","__proto__":{"admin":true}}');
    expect(Object.getPrototypeOf(edited)).toBe(Object.prototype);
    expect(() => applySets(['a'], [['x', 1]])).toThrow('not one: use --input');
  });

  it('says that --input replaces the arguments when it is not JSON', () => {
    expect(() => parseInputOption('{amount: 50}')).toThrow(
      /--input is not JSON .* it replaces all the arguments/,
    );
  });
});
