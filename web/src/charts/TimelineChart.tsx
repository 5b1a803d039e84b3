import { Area, Bar, Brush, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import { codeLabel, formatCount, formatPerMille, formatShortDay } from '../lib/format';
import type { TimelinePoint } from './chart-data';
import { codeColor } from './colors';

export interface TimelineChartProps {
  points: TimelinePoint[];
  codes: string[];
  allCodes: readonly string[];
  markers: Array<{ version: string; first_day: string }>;
  height: number;
  compact?: boolean;
  /** Called with the first and last bucket kept by the brush. */
  onRange?: (from: string, to: string) => void;
  /**
   * The report's chart: the rate axis is scaled to the rates drawn (not to their intervals), an
   * interval clipped at the top ends in a visible mark (its value in the tooltip), and version
   * labels are thinned so no two overlap (the versions in `keepVersions` first).
   */
  scaleToRates?: boolean;
  keepVersions?: readonly string[];
}

/** The smallest of 1, 2, 2.5, 5 × 10^k at or above v. */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v * (1 - 1e-12)) return m * p;
  return 10 * p;
}

/** Version markers at least `gap` points apart: the kept versions first, then the others in order. */
export function thinMarkers<M extends { version: string; first_day: string }>(
  markers: readonly M[],
  index: ReadonlyMap<string, number>,
  gap: number,
  keep: readonly string[],
): M[] {
  const placed: number[] = [];
  const out: M[] = [];
  const free = (i: number) => placed.every((p) => Math.abs(p - i) >= gap);
  const ordered = [...markers.filter((m) => keep.includes(m.version)), ...markers.filter((m) => !keep.includes(m.version))];
  for (const m of ordered) {
    const i = index.get(m.first_day);
    if (i === undefined || !free(i)) continue;
    placed.push(i);
    out.push(m);
  }
  return out;
}

/**
 * Each code's rate per 1,000 of its own opportunities as lines over a shaded 95% interval, the
 * denominator as bars on a second axis (so a rate on three turns looks as uncertain as it
 * is), and a dashed marker where each Claude Code version was first seen. Receives rows; never fetches.
 */
export function TimelineChart({
  points: raw,
  codes,
  allCodes,
  markers,
  height,
  compact = false,
  onRange,
  scaleToRates = false,
  keepVersions = [],
}: TimelineChartProps) {
  const keys = new Set(raw.map((p) => p.key));
  const index = new Map(raw.map((p, i) => [p.key, i]));
  const largest = Math.max(0, ...raw.flatMap((p) => codes.map((c) => (typeof p[c] === 'number' ? (p[c] as number) : 0))));
  const top = scaleToRates ? niceCeil(largest * 1.25) : null;
  // Where an interval runs past the top, a mark at the top (the tooltip gives the interval's real end).
  const points =
    top === null
      ? raw
      : raw.map((p) => {
          const q = { ...p };
          for (const c of codes) {
            const band = p[`${c}__band`] as [number, number] | null | undefined;
            q[`${c}__clipped`] = band && band[1] > top ? top : null;
            q[`${c}__high`] = band ? band[1] : null;
          }
          return q;
        });
  // About one label per 70 px of an 800 px chart; the report chart thins, the page charts keep every marker.
  const shown = scaleToRates ? thinMarkers(markers, index, Math.max(1, Math.ceil((raw.length * 70) / 800)), keepVersions) : markers;
  return (
    <div className="chart" data-testid="timeline-chart" data-points={points.length} data-top={top ?? ''} data-largest={largest}>
      <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 800, height }}>
        <ComposedChart data={points} margin={{ top: 18, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis dataKey="key" tickFormatter={formatShortDay} stroke="var(--muted)" fontSize={12} minTickGap={24} />
          <YAxis
            yAxisId="rate"
            stroke="var(--muted)"
            fontSize={12}
            width={58}
            tickFormatter={(v: number) => formatPerMille(v)}
            {...(top === null ? {} : { domain: [0, top], allowDataOverflow: true })}
          />
          {!compact && (
            <YAxis yAxisId="turns" orientation="right" stroke="var(--muted)" fontSize={12} width={48} tickFormatter={(v: number) => formatCount(v)} />
          )}
          <Tooltip
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' }}
            labelFormatter={(day) => formatShortDay(String(day))}
            formatter={(value, name, item) => {
              if (name === 'tool-use turns') return [formatCount(Number(value)), name];
              if (String(name).endsWith('interval clipped')) {
                const high = (item as { payload?: Record<string, unknown> }).payload?.[`${String(item.dataKey).replace('__clipped', '')}__high`];
                return [`runs to ${formatPerMille(Number(high))} (above the axis)`, name];
              }
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
          {top !== null &&
            codes.map((code) => (
              <Scatter
                key={`${code}-clipped`}
                yAxisId="rate"
                dataKey={`${code}__clipped`}
                name={`${codeLabel(code)} interval clipped`}
                legendType="none"
                shape="triangle"
                fill={codeColor(code, allCodes)}
                stroke="var(--text)"
                className="clip-mark"
                isAnimationActive={false}
              />
            ))}
          {shown
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
