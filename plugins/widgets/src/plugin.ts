import { definePlugin } from '@tessera/core';
import { widgetHelpers } from './display-widget.ts';
import { widgetOutput } from './widget-output.ts';

/** Adds the `widget` output and gives every tool `displayWidget` and `updateWidget`. */
export const widgetsPlugin = definePlugin({
  id: 'widgets',
  outputs: [widgetOutput],
  toolInput: widgetHelpers,
});
