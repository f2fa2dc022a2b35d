import { z } from 'zod';
import { defineWidget } from '../define-widget.ts';
import { cellOf, Scalar, scalarText } from './cell.ts';

export const TableColumn = z.object({
  /** The key of the column's value in each row. */
  key: z.string().min(1),
  /** The header; the key when left out. */
  label: z.string().optional(),
  align: z.enum(['left', 'center', 'right']).optional(),
});

export const TableData = z
  .object({
    title: z.string().optional(),
    columns: z.array(TableColumn).min(1),
    rows: z.array(z.record(z.string(), Scalar)),
  })
  .superRefine((table, context) => {
    const keys = new Set(table.columns.map((column) => column.key));
    if (keys.size !== table.columns.length) {
      context.addIssue({ code: 'custom', path: ['columns'], message: 'Column keys must be unique.' });
    }
    for (const [index, row] of table.rows.entries()) {
      const unknown = Object.keys(row).find((key) => !keys.has(key));
      if (unknown !== undefined) {
        context.addIssue({
          code: 'custom',
          path: ['rows', index, unknown],
          message: `'${unknown}' is not a column key.`,
        });
      }
    }
  });
export type TableData = z.output<typeof TableData>;

/** Rows of values under named columns. Fallback: the table as tab-separated text. */
export const tableWidget = defineWidget({
  type: 'table',
  data: TableData,
  fallback: (table) => {
    const lines = [table.columns.map((column) => column.label ?? column.key).join('\t')];
    for (const row of table.rows)
      lines.push(table.columns.map((c) => scalarText(cellOf(row, c.key))).join('\t'));
    return table.title ? `${table.title}\n${lines.join('\n')}` : lines.join('\n');
  },
});
