import { z } from 'zod';

/** A scalar a generic widget can show in a cell or a value slot. */
export const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type Scalar = z.infer<typeof Scalar>;

export const scalarText = (value: Scalar | undefined): string =>
  value === null || value === undefined ? '' : String(value);
