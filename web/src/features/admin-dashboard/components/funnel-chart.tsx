/**
 * Where learners stall: one horizontal bar per module (completed, then in progress). Imported
 * only by actives-chart.tsx, so it lives in the dashboard's one lazily loaded chart chunk with
 * Victory and never in a learner page's bundle.
 */
import { useContainerWidth } from '../hooks/use-container-width';
import { VictoryAxis, VictoryBar, VictoryChart, VictoryContainer, VictoryLegend, VictoryStack } from 'victory';
import type { FunnelModule } from '../../../../../shared/admin-types';
import { integerTicks } from '../utils/format';

const AXIS_STYLE = {
  tickLabels: { fontSize: 11, fill: '#4b5563', padding: 4 },
  axis: { stroke: '#d1d5db' },
  grid: { stroke: '#eef0f4' },
};
export const FUNNEL_COLORS = { completed: '#1d4ed8', in_progress: '#f59e0b' };
const ROW_PX = 30;

/** "W1 · Title", cut to fit the axis. */
export const moduleLabel = (module: Pick<FunnelModule, 'week_number' | 'title'>) => {
  const text = `W${module.week_number} · ${module.title}`;
  return text.length > 28 ? `${text.slice(0, 27)}…` : text;
};

export default function FunnelChart({ modules, label }: { modules: FunnelModule[]; label: string }) {
  const { ref, width } = useContainerWidth(280);
  const height = Math.max(160, modules.length * ROW_PX + 80);
  // a horizontal chart draws x = 0 at the bottom: the first module gets the highest x (the top row)
  const x = (index: number) => modules.length - index;
  const completed = modules.map((module, index) => ({ x: x(index), y: module.completed }));
  const inProgress = modules.map((module, index) => ({ x: x(index), y: module.in_progress }));
  const ticks = integerTicks(Math.max(0, ...modules.map((module) => module.completed + module.in_progress)));
  return (
    <div ref={ref} style={{ height }}>
      <VictoryChart
        horizontal
        width={width}
        height={height}
        padding={{ top: 36, right: 24, bottom: 36, left: 190 }}
        domain={{ y: [0, ticks[ticks.length - 1]], x: [0.5, modules.length + 0.5] }}
        containerComponent={<VictoryContainer responsive={false} title={label} />}
      >
        <VictoryLegend
          x={190}
          y={4}
          orientation="horizontal"
          gutter={16}
          style={{ labels: { fontSize: 11, fill: '#4b5563' } }}
          data={[
            { name: 'Completed', symbol: { fill: FUNNEL_COLORS.completed } },
            { name: 'In progress', symbol: { fill: FUNNEL_COLORS.in_progress } },
          ]}
        />
        <VictoryAxis
          tickValues={modules.map((_, index) => x(index))}
          tickFormat={(value: number) => (modules[modules.length - value] ? moduleLabel(modules[modules.length - value]) : '')}
          style={AXIS_STYLE}
        />
        <VictoryAxis dependentAxis tickValues={ticks} tickFormat={(value: number) => String(Math.round(value))} style={AXIS_STYLE} />
        <VictoryStack>
          <VictoryBar data={completed} barWidth={16} style={{ data: { fill: FUNNEL_COLORS.completed } }} />
          <VictoryBar data={inProgress} barWidth={16} style={{ data: { fill: FUNNEL_COLORS.in_progress } }} />
        </VictoryStack>
      </VictoryChart>
    </div>
  );
}
