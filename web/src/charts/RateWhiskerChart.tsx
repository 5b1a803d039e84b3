import { Bar, CartesianGrid, Cell, ComposedChart, ErrorBar, ReferenceLine, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import { NOT_MEASURABLE_TEXT } from '../../../shared/denominators';
import { formatCount, formatPerMille } from '../lib/format';
import { textWidth } from '../lib/text-width';
import { CodeLegend } from './CodeLegend';
import { type WhiskerPoint, type WhiskerRow, whiskerRows, whiskerTop } from './chart-data';
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

/** "stop reason not recorded": the reason in words, for a tooltip that starts "not measurable:". */
export function notMeasurableWhy(reason: string): string {
  const text = NOT_MEASURABLE_TEXT[reason];
  return text ? text.replace(/^not measurable \((.*)\)$/, '$1') : reason.replace(/_/g, ' ');
}

const LABEL_FONT = 11;

/** An upward triangle with its tip on the axis top and its body inside the plot (so the plot's clip leaves it whole). */
function ClipTriangle(props: unknown) {
  const { cx, cy, fill } = props as { cx?: number; cy?: number; fill?: string };
  if (typeof cx !== 'number' || typeof cy !== 'number') return <g />;
  return <path className="clip-triangle" d={`M${cx},${cy} l-6,10 l12,0 z`} fill={fill} stroke="var(--text)" strokeWidth={1} />;
}

/**
 * One bar per version, range or model: the rate with its 95% interval as whiskers, where it has
 * findings. A zero draws no whisker (its bound is in the tooltip); where the code cannot be
 * measured the column is hatched grey (never an empty column like a zero); a whisker running past
 * the axis top ends in a triangle (its real end in the tooltip). Labels are thinned or turned
 * upright so none prints over another, and the axis is as tall as the longest label.
 */
export function RateWhiskerChart({ points, color, height, testId, code, per = 'tool-use turns', onPick, firstBad = [] }: RateWhiskerChartProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const plot = Math.max(100, width - 70);
  const longest = Math.max(8, ...points.map((p) => textWidth(p.key, LABEL_FONT)));
  const flat = longest + 8 <= plot / Math.max(1, points.length);
  const interval = flat ? 0 : thinInterval(points.length, plot, 16);
  // Upright labels hang below the axis: room for the longest one, whole (never cut at a fixed height).
  const labelRoom = flat ? 0 : Math.ceil(longest) + 6;
  const top = whiskerTop(points);
  const data = whiskerRows(points, top);
  const hatch = `not-measurable-hatch-${testId}`;
  const notMeasurable = data.filter((p) => p.not_measurable !== null).length;
  const clipped = data.filter((p) => p.clipped !== null).length;
  return (
    <div
      className="chart"
      data-testid={testId}
      data-points={points.length}
      data-top={top}
      data-not-measurable={notMeasurable}
      data-clipped={clipped}
      data-label-room={labelRoom}
      ref={ref}
    >
      <ComposedChart width={width} height={height + labelRoom} data={data} margin={{ top: 12, right: 8, bottom: 4, left: 0 }}>
        <defs>
          <pattern id={hatch} patternUnits="userSpaceOnUse" width={6} height={6} patternTransform="rotate(45)">
            <rect width={6} height={6} fill="var(--grid)" />
            <line x1={0} y1={0} x2={0} y2={6} stroke="var(--muted)" strokeWidth={2} />
          </pattern>
        </defs>
        <CartesianGrid stroke="var(--grid)" vertical={false} />
        <XAxis
          dataKey="key"
          stroke="var(--muted)"
          fontSize={LABEL_FONT}
          interval={interval}
          angle={flat ? 0 : -90}
          textAnchor={flat ? 'middle' : 'end'}
          height={flat ? 30 : labelRoom + 10}
          dx={flat ? 0 : -4}
        />
        <YAxis stroke="var(--muted)" fontSize={12} width={58} domain={[0, top]} allowDataOverflow tickFormatter={(v: number) => formatPerMille(v)} />
        <Tooltip
          allowEscapeViewBox={{ x: false, y: false }}
          wrapperStyle={{ pointerEvents: 'none' }}
          content={({ active, payload }) => {
            const p = payload?.[0]?.payload as WhiskerRow | undefined;
            if (!active || !p) return null;
            return (
              <div className="chart-tooltip">
                <div className="chart-tooltip-title">{p.label ?? p.key}</div>
                <div>
                  {p.not_measurable !== null
                    ? `not measurable: ${notMeasurableWhy(p.not_measurable)}`
                    : p.count > 0
                      ? `${formatPerMille(p.rate ?? 0)} (95% CI ${formatPerMille(p.low)}–${formatPerMille(p.high)}): ${p.count} in ${formatCount(p.tool_use_turns)} ${per}`
                      : formatZero(p.tool_use_turns, { rate: 0, low: 0, high: p.high }, per)}
                </div>
                {p.clipped !== null && <div>interval runs to {formatPerMille(p.high)} (above the axis)</div>}
                {p.label && onPick && <div className="muted">click to open this range</div>}
              </div>
            );
          }}
        />
        <Bar
          dataKey={(p: WhiskerRow) => p.rate ?? p.not_measurable_mark}
          name="rate"
          fill={color}
          className="rate-bar"
          isAnimationActive={false}
          minPointSize={0}
          onClick={(d) => {
            const k = (d as unknown as { payload?: { key?: string } }).payload?.key;
            if (k && onPick) onPick(k);
          }}
        >
          {data.map((p) =>
            p.not_measurable !== null ? (
              <Cell key={p.key} fill={`url(#${hatch})`} fillOpacity={0.6} className="not-measurable-mark" cursor={onPick ? 'pointer' : undefined} />
            ) : (
              <Cell key={p.key} fill={firstBad.includes(p.key) ? 'var(--danger, #cc3311)' : color} cursor={onPick ? 'pointer' : undefined} />
            ),
          )}
          <ErrorBar dataKey="error" width={6} stroke="var(--text)" direction="y" />
        </Bar>
        {clipped > 0 && (
          <Scatter
            dataKey="clipped"
            name="interval clipped"
            shape={ClipTriangle}
            fill={color}
            stroke="var(--text)"
            className="clip-mark"
            isAnimationActive={false}
          />
        )}
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
      </ComposedChart>
      {(notMeasurable > 0 || clipped > 0) && (
        <p className="muted small chart-note" data-testid="chart-marks">
          {notMeasurable > 0 && <span className="not-measurable-key">Hatched: not measurable there (no rate, unlike a zero). </span>}
          {clipped > 0 && <span>▲ at the top: the interval runs past the axis (hover for its end).</span>}
        </p>
      )}
      {code && <CodeLegend codes={[code]} />}
    </div>
  );
}
