// Mantine's core styles first: its extensions' styles build on them, in the same layer.
import '../../components/allMantineStyles.ts';
import '@mantine/charts/styles.layer.css';
import { AreaChart } from '@mantine/charts';
import type { TrafficPoint } from './trafficSeries.ts';

/** Requests per hour or day as an area chart, each point labelled for its tooltip; small and bare unless `axes`. */
export function TrafficChart({
  data,
  height = 96,
  axes = false,
}: {
  data: (Pick<TrafficPoint, 'requests'> & { label: string })[];
  height?: number;
  axes?: boolean;
}) {
  return (
    <AreaChart
      h={height}
      data={data}
      dataKey="label"
      series={[{ name: 'requests', label: 'Requests', color: 'harbour.6' }]}
      curveType="monotone"
      withDots={false}
      withXAxis={axes}
      withYAxis={axes}
      gridAxis="none"
      fillOpacity={0.25}
      strokeWidth={1.5}
      tooltipAnimationDuration={100}
    />
  );
}
