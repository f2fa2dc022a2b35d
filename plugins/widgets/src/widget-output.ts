import { defineOutput, type OutputOf } from '@tessera/core';
import { z } from 'zod';

/**
 * The `widget` output: display data for the UI, validated by its widget's schema when it was displayed.
 * Skipped by the projection: the model already has the tool's result, and never sees data or fallback.
 */
export const widgetOutput = defineOutput({
  type: 'widget',
  fields: {
    /** The widget's type, e.g. `table`: what a renderer switches on. */
    widget: z.string().min(1),
    data: z.unknown(),
    /** Text for clients that cannot render this widget. */
    fallback: z.string(),
  },
  project: 'skip',
});

export type WidgetOutput = OutputOf<typeof widgetOutput>;

declare module '@tessera/core' {
  interface PromptOutputTypes {
    widget: WidgetOutput;
  }
}
