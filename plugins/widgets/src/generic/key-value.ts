import { z } from 'zod';
import { defineWidget } from '../define-widget.ts';
import { Scalar, scalarText } from './cell.ts';

export const KeyValueData = z.object({
  title: z.string().optional(),
  items: z.array(z.object({ label: z.string().min(1), value: Scalar })).min(1),
});
export type KeyValueData = z.output<typeof KeyValueData>;

/** A card of labelled values (a record's details, a summary). Fallback: one `label: value` per line. */
export const keyValueWidget = defineWidget({
  type: 'key-value',
  data: KeyValueData,
  fallback: (card) => {
    const lines = card.items.map((item) => `${item.label}: ${scalarText(item.value)}`);
    return card.title ? `${card.title}\n${lines.join('\n')}` : lines.join('\n');
  },
});
