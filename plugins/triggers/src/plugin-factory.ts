import { definePluginFactory } from '@tessera/core';
import { z } from 'zod';
import type { Clock } from './clock.ts';
import { triggersPlugin } from './plugin.ts';

const isClock = (value: unknown): value is Clock =>
  typeof (value as Clock | null)?.now === 'function' && typeof (value as Clock).setTimer === 'function';

const ms = z.number().int().nonnegative();

/**
 * `triggersPlugin` as a plugin factory, the package's default export: what a config file names,
 * `{ "package": "@tessera/plugin-triggers", "options": { "defaultTimeZone": "Europe/Paris" } }`. Its
 * options are `triggersPlugin`'s, validated (an unknown time zone is refused when the plugin is made).
 */
export const triggersPluginFactory = definePluginFactory({
  id: 'triggers',
  options: z
    .object({
      clock: z.custom<Clock>(isClock, 'expected a Clock (now, setTimer)').optional(),
      defaultTimeZone: z.string().min(1).optional(),
      historyLimit: z.number().int().positive().optional(),
      maxTriggersPerUser: z.number().int().positive().optional(),
      scheduler: z
        .union([
          z.literal(false),
          z
            .object({
              rescanEveryMs: z.number().int().positive().optional(),
              lateGraceMs: ms.optional(),
              restartAfterMs: ms.optional(),
              onError: z
                .custom<(error: unknown) => void>(
                  (value) => typeof value === 'function',
                  'expected a function',
                )
                .optional(),
            })
            .strict(),
        ])
        .optional(),
    })
    .strict(),
  create: (options) => triggersPlugin(options),
});
