import type { PromptOutput } from '@tessera/core';
import type { AnyWidget, WidgetData } from './define-widget.ts';

/**
 * The data of a recorded output if it is a valid `widget` of this kind, else `undefined`: what a renderer
 * uses to pick a component, tolerating records written by an older version of the widget.
 */
export function readWidget<W extends AnyWidget>(output: PromptOutput, widget: W): WidgetData<W> | undefined {
  if (output.type !== 'widget' || output.widget !== widget.type) return undefined;
  const parsed = widget.data.safeParse(output.data);
  return parsed.success ? parsed.data : undefined;
}
