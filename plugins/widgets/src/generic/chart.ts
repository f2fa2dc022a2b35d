import { z } from 'zod';
import { defineWidget } from '../define-widget.ts';

export const ChartSeries = z.object({
  name: z.string().min(1),
  points: z.array(z.object({ x: z.union([z.number(), z.string()]), y: z.number() })),
});

export const ChartData = z.object({
  title: z.string().optional(),
  kind: z.enum(['line', 'bar', 'area']).default('line'),
  /** How to read `x`: numbers, ISO dates/times, or category labels. */
  x: z
    .object({ label: z.string().optional(), scale: z.enum(['linear', 'time', 'category']).optional() })
    .default({}),
  y: z.object({ label: z.string().optional(), unit: z.string().optional() }).default({}),
  series: z.array(ChartSeries).min(1),
});
export type ChartData = z.output<typeof ChartData>;

/** One or more series of (x, y) points. Fallback: each series with its point count and y range. */
export const chartWidget = defineWidget({
  type: 'chart',
  data: ChartData,
  fallback: (chart) => {
    const unit = chart.y.unit ? ` ${chart.y.unit}` : '';
    const lines = chart.series.map((series) => {
      if (series.points.length === 0) return `${series.name}: no points`;
      const ys = series.points.map((point) => point.y);
      return `${series.name}: ${ys.length} points, ${Math.min(...ys)}–${Math.max(...ys)}${unit}`;
    });
    return [chart.title ?? 'Chart', ...lines].join('\n');
  },
});
