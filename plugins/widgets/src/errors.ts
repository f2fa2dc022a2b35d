import { TesseraError } from '@tessera/core';

/** A tool displayed or updated a widget with data its schema rejects; nothing was recorded. */
export class WidgetDataError extends TesseraError {
  readonly widgetType: string;
  constructor(widgetType: string, message: string, options?: ErrorOptions) {
    super('widget_data_invalid', message, options);
    this.widgetType = widgetType;
  }
}
