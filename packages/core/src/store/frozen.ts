/**
 * Deeply frozen values, made once and then passed on: how the in-memory store and the loop keep the record
 * immutable to callers without deep-cloning it on every write or read.
 */

const isObject = (value: unknown): value is object =>
  (typeof value === 'object' && value !== null) || typeof value === 'function';

/**
 * The last values this module made (frozen all the way down), so that passing one on, as the loop does when
 * it hands an output to the store right after freezing it, costs no second copy. A short list compared by
 * identity rather than a weak set of all of them: adding to a weak set costs more than copying a small
 * object. A value that has dropped off the list is still frozen; it is just copied again if passed again.
 */
const RECENT = 16;
const recent: (object | undefined)[] = new Array(RECENT).fill(undefined);
let cursor = 0;

function isRecent(value: object): boolean {
  // From the newest: a value is mostly passed on right after it was made. (No `Object.isFrozen` first: it
  // runs in C++ over every property, and costs more than the whole search.)
  for (let i = 1, at = cursor; i <= RECENT; i++)
    if (recent[(at - i + RECENT) % RECENT] === value) return true;
  return false;
}

function remember<T>(value: T): T {
  if (isObject(value)) {
    recent[cursor] = value;
    cursor = (cursor + 1) % RECENT;
  }
  return value;
}

/**
 * `value`, a plain object the caller has just made of primitives and of values this module made, frozen in
 * place as it is: what it holds is frozen already, so nothing is copied or looked at.
 */
export function immutableOf<T extends object>(value: T): T {
  return remember(Object.freeze(value));
}

/** Deeper than this (or a cycle) and the copy falls back to `structuredClone`. */
const MAX_DEPTH = 100;
const TOO_DEEP = Symbol('too deep');

/**
 * A deeply frozen equivalent of `value`, as `structuredClone` would copy it: `value` itself when this module
 * has just made it, else a frozen copy. So a caller can neither change what it gets nor, by changing what it
 * passed, change what was kept.
 */
export function immutable<T>(value: T): T {
  if (!isObject(value) || isRecent(value)) return value;
  return remember(frozenCopy(value, 0) as T);
}

/**
 * Like `immutable`, for a plain object the caller has just made and hands over (an object literal, or zod's
 * parse of one): frozen in place rather than copied, with what it holds copied as `immutable` copies it
 * (the values in it may still be shared with others).
 */
export function immutableOwn<T extends object>(value: T): T {
  if ((value as { constructor?: unknown }).constructor !== Object || isRecent(value)) return immutable(value);
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const item = object[key];
    // Remembered too: the next version of the same output (a tool call's result after its start) passes the
    // same values on, and takes them as they are.
    if (isObject(item) && !isRecent(item)) setOwn(object, key, remember(frozenCopy(item, 1)));
    else if (typeof item === 'symbol') structuredClone(item); // refused, as structuredClone refuses it
  }
  return remember(Object.freeze(value));
}

/**
 * Like `immutableOwn`, for a new version of `previous` (a deeply frozen value this module made) that the
 * caller has just made as `{ ...previous, ...changes }`: frozen in place, with only the values that are not
 * `previous`'s own copied. What the versions share was frozen with the first, and is not looked at again.
 */
export function immutableVersion<T extends object>(value: T, previous: object): T {
  if ((value as { constructor?: unknown }).constructor !== Object || !Object.isFrozen(previous))
    return immutableOwn(value);
  const object = value as Record<string, unknown>;
  const before = previous as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const item = object[key];
    // Own keys only: an inherited value (`constructor`, `__proto__`'s getter) was never frozen with `previous`.
    if (item === before[key] && Object.hasOwn(before, key)) continue;
    if (isObject(item) && !isRecent(item)) setOwn(object, key, remember(frozenCopy(item, 1)));
    else if (typeof item === 'symbol') structuredClone(item); // refused, as structuredClone refuses it
  }
  return remember(Object.freeze(value));
}

/** `copy`, or, for a value too deep (or cyclic) for it, what `structuredClone` copies, frozen. */
function frozenCopy(value: object, depth: number): object {
  try {
    return copy(value, depth);
  } catch (error) {
    if (error !== TOO_DEEP) throw error;
  }
  return deepFreeze(structuredClone(value));
}

const NOT_PLAIN = Symbol('not plain JSON');

/**
 * What `JSON.parse(JSON.stringify(value))` gives, deeply frozen (so `immutable` takes it as it is), and
 * throwing what that throws. Plain JSON data (plain objects and arrays, strings, finite numbers, booleans,
 * null) is copied directly; anything JSON would change or refuse (undefined, -0, NaN, dates, `toJSON`,
 * holes, cycles, ...) takes the round trip itself.
 */
export function immutableJson(value: unknown): unknown {
  try {
    return remember(jsonCopy(value, 0));
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
  }
  return remember(deepFreeze(JSON.parse(JSON.stringify(value) as string)));
}

function jsonCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      throw NOT_PLAIN;
    case 'object':
      if (value === null) return null;
      break;
    default:
      throw NOT_PLAIN;
  }
  if (depth > MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') throw NOT_PLAIN;
  const made = (value as { constructor?: unknown }).constructor;
  if (made === Array && Array.isArray(value)) {
    const array: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) array[i] = jsonCopy(value[i], depth + 1); // a hole is undefined: not plain
    return Object.freeze(array);
  }
  if (made === Object && !Array.isArray(value)) {
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      setOwn(object, key, jsonCopy((value as Record<string, unknown>)[key], depth + 1));
    }
    return Object.freeze(object);
  }
  throw NOT_PLAIN;
}

/** Sets a property as data: a `__proto__` key (as JSON.parse makes) never becomes the prototype. */
function setOwn(object: Record<string, unknown>, key: string, item: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
  } else object[key] = item;
}

function deepFreeze<T>(value: T): T {
  if (isObject(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function copy(value: object, depth: number): object {
  if (isRecent(value)) return value;
  if (depth > MAX_DEPTH) throw TOO_DEEP;
  const made = (value as { constructor?: unknown }).constructor;
  if (made === Array && Array.isArray(value)) {
    const array = value.slice(); // keeps holes, as structuredClone does
    for (let i = 0; i < array.length; i++) {
      const item = array[i];
      if (isObject(item)) array[i] = copy(item, depth + 1);
      else if (typeof item === 'symbol') structuredClone(item);
    }
    return Object.freeze(array);
  }
  if (made === Object && !Array.isArray(value)) {
    // Own enumerable string keys, as structuredClone copies them (symbol keys are left out).
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      let item = (value as Record<string, unknown>)[key];
      if (isObject(item)) item = copy(item, depth + 1);
      else if (typeof item === 'symbol') structuredClone(item); // refused, as structuredClone refuses it
      setOwn(object, key, item);
    }
    return Object.freeze(object);
  }
  // Dates, maps, class instances, objects without a prototype and the like: copied (or refused) exactly as
  // structuredClone does.
  return deepFreeze(structuredClone(value));
}
