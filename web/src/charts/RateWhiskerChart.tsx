import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatPerMille } from '../lib/format';
import { CodeLegend } from './CodeLegend';
import type { WhiskerPoint } from './chart-data';
import { formatZero, thinInterval } from './scale';
import { useWidth } from './use-width';

export interface RateWhiskerChartProps {
  points: WhiskerPoint[];
  color: string;
  height: number;
  testId: string;
  /** The code drawn: named in the legend with its definition. */
  code?: string;
  /** What the rate is over, in words. */
  per?: string;
  /** Clicking a folded range opens it. */
  onPick?: (key: string) => void;
  /** Keys to mark as the first bad version. */
  firstBad?: readonly string[];
}

/** The y-axis top from the observed rates (whiskers may run off the top; their ends are in the tooltip). */
export function whiskerTop(points: readonly WhiskerPoint[]): number {
  const max = Math.max(0, ...points.map((p) => p.rate));
  if (max <= 0) return 1;
  const mag = 10 ** Math.floor(Math.log10(max * 1.15));
  return Math.ceil((max * 1.15) / mag) * mag;
}

/**
 * One bar per version, range or model: the rate with its 95% interval as whiskers, where it has
 * findings. A zero draws no whisker (its bound is in the tooltip). Labels are thinned or turned
 * upright so none prints over another.
 */
export function RateWhiskerChart({ points, color, height, testId, code, per = 'tool-use turns', onPick, firstBad = [] }: RateWhiskerChartProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const plot = Math.max(100, width - 70);
  const longest = Math.max(1, ...points.map((p) => p.key.length));
  const flat = longest * 7 + 8 <= plot / Math.max(1, points.length);
  const interval = flat ? 0 : thinInterval(points.length, plot, 16);
  const data = points.map((p) => ({ ...p, error: p.count > 0 ? p.error : null }));
  return (
    <div className="chart" data-testid={testId} data-points={points.length} ref={ref}>
      <BarChart width={width} height={height + (flat ? 0 : Math.min(110, longest * 6.5))} data={data} margin={{ top: 12, right: 8, bottom: 4, left: 0 }}>
        <CartesianGrid stroke="var(--grid)" vertical={false} />
        <XAxis
          dataKey="key"
          stroke="var(--muted)"
          fontSize={11}
          interval={interval}
          angle={flat ? 0 : -90}
          textAnchor={flat ? 'middle' : 'end'}
          height={flat ? 30 : Math.min(110, longest * 6.5) + 10}
          dx={flat ? 0 : -4}
        />
        <YAxis
          stroke="var(--muted)"
          fontSize={12}
          width={58}
          domain={[0, whiskerTop(points)]}
          allowDataOverflow
          tickFormatter={(v: number) => formatPerMille(v)}
        />
        <Tooltip
          allowEscapeViewBox={{ x: false, y: false }}
          wrapperStyle={{ pointerEvents: 'none' }}
          content={({ active, payload }) => {
            const p = payload?.[0]?.payload as (WhiskerPoint & { label?: string }) | undefined;
            if (!active || !p) return null;
            return (
              <div className="chart-tooltip">
                <div className="chart-tooltip-title">{p.label ?? p.key}</div>
                <div>
                  {p.count > 0
                    ? `${formatPerMille(p.rate)} (95% CI ${formatPerMille(p.low)}–${formatPerMille(p.high)}): ${p.count} in ${formatCount(p.tool_use_turns)} ${per}`
                    : formatZero(p.tool_use_turns, { rate: 0, low: 0, high: p.high }, per)}
                </div>
                {p.label && onPick && <div className="muted">click to open this range</div>}
              </div>
            );
          }}
        />
        <Bar
          dataKey="rate"
          fill={color}
          className="rate-bar"
          isAnimationActive={false}
          minPointSize={0}
          onClick={(d) => {
            const k = (d as unknown as { payload?: { key?: string } }).payload?.key;
            if (k && onPick) onPick(k);
          }}
        >
          {data.map((p) => (
            <Cell key={p.key} fill={firstBad.includes(p.key) ? 'var(--danger, #cc3311)' : color} cursor={onPick ? 'pointer' : undefined} />
          ))}
          <ErrorBar dataKey="error" width={6} stroke="var(--text)" direction="y" />
        </Bar>
        {points
          .filter((p) => firstBad.includes(p.key))
          .map((p) => (
            <ReferenceLine
              key={`first-bad-${p.key}`}
              x={p.key}
              stroke="var(--danger, #cc3311)"
              strokeWidth={2}
              className="first-bad-marker"
              label={{ value: `first bad: ${p.key}`, position: 'insideTopLeft', fontSize: 11, fill: 'var(--danger, #cc3311)' }}
            />
          ))}
      </BarChart>
      {code && <CodeLegend codes={[code]} />}
    </div>
  );
}
