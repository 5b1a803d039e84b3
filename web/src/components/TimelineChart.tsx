import { Area, Bar, Brush, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TimelinePoint } from '../lib/chart-data';
import { codeColor } from '../lib/colors';
import { codeLabel, formatCount, formatPerMille, formatShortDay } from '../lib/format';

export interface TimelineChartProps {
  points: TimelinePoint[];
  codes: string[];
  allCodes: readonly string[];
  markers: Array<{ version: string; first_day: string }>;
  height: number;
  compact?: boolean;
  /** Called with the first and last bucket kept by the brush. */
  onRange?: (from: string, to: string) => void;
}

/**
 * Each code's rate per 1,000 of its own opportunities as lines over a shaded 95% interval, the
 * denominator as bars on a second axis (so a rate on three turns looks as uncertain as it
 * is), and a dashed marker where each Claude Code version was first seen. Receives rows; never fetches.
 */
export function TimelineChart({ points, codes, allCodes, markers, height, compact = false, onRange }: TimelineChartProps) {
  const keys = new Set(points.map((p) => p.key));
  return (
    <div className="chart" data-testid="timeline-chart" data-points={points.length}>
      <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 800, height }}>
        <ComposedChart data={points} margin={{ top: 18, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis dataKey="key" tickFormatter={formatShortDay} stroke="var(--muted)" fontSize={12} minTickGap={24} />
          <YAxis yAxisId="rate" stroke="var(--muted)" fontSize={12} width={58} tickFormatter={(v: number) => formatPerMille(v)} />
          {!compact && (
            <YAxis yAxisId="turns" orientation="right" stroke="var(--muted)" fontSize={12} width={48} tickFormatter={(v: number) => formatCount(v)} />
          )}
          <Tooltip
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' }}
            labelFormatter={(day) => formatShortDay(String(day))}
            formatter={(value, name) => {
              if (name === 'tool-use turns') return [formatCount(Number(value)), name];
              if (Array.isArray(value)) return [`${formatPerMille(Number(value[0]))}–${formatPerMille(Number(value[1]))}`, name];
              return [formatPerMille(Number(value)), name];
            }}
          />
          {!compact && <Legend wrapperStyle={{ fontSize: 12 }} />}
          {!compact && (
            <Bar yAxisId="turns" dataKey="tool_use_turns" name="tool-use turns" fill="var(--bar)" className="denominator-bar" isAnimationActive={false} />
          )}
          {!compact &&
            codes.map((code) => (
              <Area
                key={`${code}-band`}
                yAxisId="rate"
                dataKey={`${code}__band`}
                name={`${codeLabel(code)} 95% interval`}
                stroke="none"
                fill={codeColor(code, allCodes)}
                fillOpacity={0.15}
                legendType="none"
                isAnimationActive={false}
                connectNulls={false}
              />
            ))}
          {codes.map((code) => (
            <Line
              key={code}
              yAxisId="rate"
              dataKey={code}
              name={codeLabel(code)}
              stroke={codeColor(code, allCodes)}
              strokeWidth={2}
              dot={points.length < 40 ? { r: 2 } : false}
              className={`rate-line rate-line-${code}`}
              isAnimationActive={false}
              connectNulls={false}
            />
          ))}
          {markers
            .filter((m) => keys.has(m.first_day))
            .map((m) => (
              <ReferenceLine
                key={m.version}
                yAxisId="rate"
                x={m.first_day}
                stroke="var(--muted)"
                strokeDasharray="3 3"
                className="version-marker"
                label={compact ? undefined : { value: m.version, position: 'top', fontSize: 10, fill: 'var(--muted)' }}
              />
            ))}
          {!compact && onRange && points.length > 1 && (
            <Brush
              dataKey="key"
              height={22}
              stroke="var(--accent)"
              fill="var(--surface)"
              tickFormatter={formatShortDay}
              onChange={(range) => {
                const r = range as { startIndex?: number; endIndex?: number };
                if (r.startIndex === undefined || r.endIndex === undefined) return;
                onRange(points[r.startIndex]!.key, points[r.endIndex]!.key);
              }}
            />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
