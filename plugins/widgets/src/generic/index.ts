import { chartWidget } from './chart.ts';
import { keyValueWidget } from './key-value.ts';
import { progressWidget } from './progress.ts';
import { tableWidget } from './table.ts';

export { Scalar } from './cell.ts';
export { ChartData, ChartSeries, chartWidget } from './chart.ts';
export { KeyValueData, keyValueWidget } from './key-value.ts';
export { ProgressData, progressWidget } from './progress.ts';
export { TableColumn, TableData, tableWidget } from './table.ts';

/** The generic widgets, for renderers that register a component per widget type. */
export const genericWidgets = [tableWidget, keyValueWidget, progressWidget, chartWidget] as const;
