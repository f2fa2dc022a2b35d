import { z } from 'zod';
import { defineWidget } from '../define-widget.ts';

export const ProgressData = z
  .object({
    label: z.string().min(1),
    value: z.number().nonnegative(),
    max: z.number().positive().default(100),
    status: z.enum(['running', 'done', 'failed']).default('running'),
  })
  .refine((progress) => progress.value <= progress.max, {
    path: ['value'],
    message: 'value cannot exceed max.',
  });
export type ProgressData = z.output<typeof ProgressData>;

/**
 * A progress bar, meant to be updated in place with `updateWidget`. Fallback: `label: 40% (40/100)`.
 */
export const progressWidget = defineWidget({
  type: 'progress',
  data: ProgressData,
  fallback: ({ label, value, max, status }) => {
    const percent = Math.round((value / max) * 100);
    const suffix = status === 'running' ? '' : ` (${status})`;
    return `${label}: ${percent}% (${value}/${max})${suffix}`;
  },
});
