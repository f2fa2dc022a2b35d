import { z } from 'zod';

/** A scalar a generic widget can show in a cell or a value slot. */
export const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type Scalar = z.infer<typeof Scalar>;

export const scalarText = (value: Scalar | undefined): string =>
  value === null || value === undefined ? '' : String(value);

/**
 * The value of a row's column, or undefined when the row has none. Own keys only: the model names the
 * columns, and a column `constructor` or `toString` of a row without it is an empty cell, not a function.
 */
export const cellOf = (row: Readonly<Record<string, Scalar>>, key: string): Scalar | undefined =>
  Object.hasOwn(row, key) ? row[key] : undefined;
