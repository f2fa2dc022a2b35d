import { NotFoundError, type ToolInputBase } from '@tessera/core';
import { type AnyWidget, parseWidgetData, type WidgetInput } from './define-widget.ts';
import { WidgetDataError } from './errors.ts';
import type { WidgetOutput } from './widget-output.ts';

/** The fallback may be left out only for widgets that derive their own. */
type FallbackArgument<W extends AnyWidget> = W extends { fallback: (data: never) => string }
  ? [fallback?: string]
  : [fallback: string];

/** Shows a widget right after the calling tool's output; resolves with the widget's output id. */
export type DisplayWidget = <W extends AnyWidget>(
  widget: W,
  data: WidgetInput<W>,
  ...fallback: FallbackArgument<W>
) => Promise<string>;

/**
 * Replaces the data of a widget displayed earlier in the same prompt (e.g. a progress bar), recorded as a
 * `prompt.output-updated` event on the same output id. Without a fallback, the widget's own is derived,
 * or the previous one is kept.
 */
export type UpdateWidget = <W extends AnyWidget>(
  outputId: string,
  widget: W,
  data: WidgetInput<W>,
  fallback?: string,
) => Promise<void>;

declare module '@tessera/core' {
  interface ToolInputExtensions {
    displayWidget: DisplayWidget;
    updateWidget: UpdateWidget;
  }
}

function fallbackText(widget: AnyWidget, data: unknown, given: string | undefined): string | undefined {
  if (given !== undefined) {
    if (typeof given !== 'string') {
      throw new WidgetDataError(widget.type, `The fallback of widget '${widget.type}' must be a string.`);
    }
    return given;
  }
  return widget.fallback?.(data);
}

/** `displayWidget` and `updateWidget` for one tool call, on top of core's generic emitter. */
export function widgetHelpers({ emit, update, outputs }: ToolInputBase): {
  displayWidget: DisplayWidget;
  updateWidget: UpdateWidget;
} {
  const displayWidget: DisplayWidget = (widget, input, ...rest) => {
    // Validate before emitting, so bad data is the tool's error and never a record entry.
    const data = parseWidgetData(widget, input);
    const fallback = fallbackText(widget, data, rest[0]);
    if (fallback === undefined) {
      throw new WidgetDataError(
        widget.type,
        `displayWidget('${widget.type}') needs a fallback text: this widget cannot derive one.`,
      );
    }
    return emit({ type: 'widget', widget: widget.type, data, fallback });
  };

  const updateWidget: UpdateWidget = async (outputId, widget, input, given) => {
    const shown = outputs().find((o): o is WidgetOutput => o.id === outputId && o.type === 'widget');
    if (!shown) throw new NotFoundError(`This prompt displayed no widget with output id ${outputId}.`);
    if (shown.widget !== widget.type) {
      throw new WidgetDataError(
        widget.type,
        `Output ${outputId} is a '${shown.widget}' widget; it cannot be updated as a '${widget.type}' widget.`,
      );
    }
    const data = parseWidgetData(widget, input);
    const fallback = fallbackText(widget, data, given) ?? shown.fallback;
    await update(outputId, { type: 'widget', widget: widget.type, data, fallback });
  };

  return { displayWidget, updateWidget };
}
