// Mantine's core styles first: its extensions' styles build on them, in the same layer.
import '../../components/allMantineStyles.ts';
import '@mantine/charts/styles.layer.css';
import { AreaChart } from '@mantine/charts';
import type { TrafficPoint } from './trafficSeries.ts';

/** Requests per hour as a small area chart, each point labelled for its tooltip. */
export function TrafficChart({ data }: { data: (TrafficPoint & { label: string })[] }) {
  return (
    <AreaChart
      h={96}
      data={data}
      dataKey="label"
      series={[{ name: 'requests', label: 'Requests', color: 'harbour.6' }]}
      curveType="monotone"
      withDots={false}
      withXAxis={false}
      withYAxis={false}
      gridAxis="none"
      fillOpacity={0.25}
      strokeWidth={1.5}
      tooltipAnimationDuration={100}
    />
  );
}
