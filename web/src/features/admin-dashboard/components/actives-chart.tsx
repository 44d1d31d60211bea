/**
 * The only file that imports victory. It is loaded with React.lazy from the dashboard, so the
 * charting code is a separate chunk fetched on /admin/dashboard alone.
 */
import { useContainerWidth } from '../hooks/use-container-width';
import { VictoryAxis, VictoryChart, VictoryContainer, VictoryLine, VictoryScatter } from 'victory';
import { CHART_HEIGHT_PX } from '@shared/constants';
import type { DailyCount } from '../api/get-summary';
import { formatMonthDay as shortMonthDay } from '@/utils/format';
import { integerTicks } from '../utils/format';

const AXIS_STYLE = {
  tickLabels: { fontSize: 11, fill: '#4b5563', padding: 4 },
  axis: { stroke: '#d1d5db' },
  grid: { stroke: '#eef0f4' },
};

export default function ActivesChart({ data, label }: { data: DailyCount[]; label: string }) {
  const { ref, width } = useContainerWidth(240);
  const points = data.map((point, index) => ({ x: index, y: point.count, date: point.date }));
  const ticks = integerTicks(Math.max(0, ...data.map((point) => point.count)));
  // A 30-day axis cannot label every day legibly; keep about seven labels.
  const every = Math.max(1, Math.ceil(points.length / 7));
  const xTicks = points.filter((_, index) => index % every === 0).map((point) => point.x);
  return (
    <div ref={ref} style={{ height: CHART_HEIGHT_PX }}>
      <VictoryChart
        width={width}
        height={CHART_HEIGHT_PX}
        padding={{ top: 16, right: 24, bottom: 40, left: 44 }}
        domain={{ y: [0, ticks[ticks.length - 1]] }}
        containerComponent={<VictoryContainer responsive={false} title={label} />}
      >
        <VictoryAxis tickValues={xTicks} tickFormat={(x: number) => shortMonthDay(points[x]?.date ?? '')} style={AXIS_STYLE} />
        <VictoryAxis dependentAxis tickValues={ticks} tickFormat={(y: number) => String(Math.round(y))} style={AXIS_STYLE} />
        <VictoryLine data={points} style={{ data: { stroke: '#1d4ed8', strokeWidth: 2 } }} />
        <VictoryScatter data={points} size={2.5} style={{ data: { fill: '#1d4ed8' } }} />
      </VictoryChart>
    </div>
  );
}
