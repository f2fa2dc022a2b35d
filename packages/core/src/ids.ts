import { nanoid } from 'nanoid';

/** A new random id with a readable prefix, e.g. `prm_V1StGXR8Z5jdHi6B`. */
export const newId = (prefix: string): string => `${prefix}_${nanoid(16)}`;
