import { Bar, BarChart, CartesianGrid, ErrorBar, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { WhiskerPoint } from '../lib/chart-data';
import { formatCount, formatPerMille } from '../lib/format';

export interface RateWhiskerChartProps {
  points: WhiskerPoint[];
  color: string;
  height: number;
  testId: string;
}

/** One bar per version (or model): the rate per 1,000 tool-use turns with its 95% interval as whiskers. */
export function RateWhiskerChart({ points, color, height, testId }: RateWhiskerChartProps) {
  return (
    <div className="chart" data-testid={testId} data-points={points.length}>
      <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 800, height }}>
        <BarChart data={points} margin={{ top: 12, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis
            dataKey="key"
            stroke="var(--muted)"
            fontSize={12}
            interval={0}
            angle={points.length > 8 ? -35 : 0}
            textAnchor={points.length > 8 ? 'end' : 'middle'}
            height={points.length > 8 ? 60 : 30}
          />
          <YAxis stroke="var(--muted)" fontSize={12} width={58} tickFormatter={(v: number) => formatPerMille(v)} />
          <Tooltip
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' }}
            formatter={(_value, _name, item) => {
              const p = item.payload as WhiskerPoint;
              return [
                `${formatPerMille(p.rate)} (95% CI ${formatPerMille(p.low)}–${formatPerMille(p.high)}); ${p.count} in ${formatCount(p.tool_use_turns)} tool-use turns`,
                'rate',
              ];
            }}
          />
          <Bar dataKey="rate" fill={color} className="rate-bar" isAnimationActive={false} minPointSize={1}>
            <ErrorBar dataKey="error" width={6} stroke="var(--text)" direction="y" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
