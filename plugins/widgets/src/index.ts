export {
  type AnyWidget,
  defineWidget,
  parseWidgetData,
  type SelfDescribingWidget,
  type Widget,
  type WidgetData,
  type WidgetInput,
} from './define-widget.ts';
export { type DisplayWidget, type UpdateWidget, widgetHelpers } from './display-widget.ts';
export { WidgetDataError } from './errors.ts';
export * from './generic/index.ts';
/** The plugin (it takes no options), for config files that name the package: `"@tessera/plugin-widgets"`. */
export { widgetsPlugin, widgetsPlugin as default } from './plugin.ts';
export { readWidget } from './read-widget.ts';
export { type WidgetOutput, widgetOutput } from './widget-output.ts';
