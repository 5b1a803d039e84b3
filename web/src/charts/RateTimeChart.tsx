import { useRef, useState } from 'react';
import { Area, Bar, Brush, CartesianGrid, ComposedChart, Line, ReferenceArea, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { codeLabel, formatCount, formatPerMille } from '../lib/format';
import type { KeyedRow as RateRow } from '../lib/keyed-rows';
import { CodeLegend } from './CodeLegend';
import { codeColor, codeDash } from './colors';
import type { ChartMarker } from './markers';
import { dayMs, nextBucket, type TimeBucket, timeTicks } from './scale';
import { useWidth } from './use-width';

interface Point {
  t: number;
  key: string | null;
  tool_use_turns: number | null;
  [series: string]: number | string | null | [number, number];
}

/** Points on a real time axis: one per bucket, and a null point in each gap so lines break there. */
export function timePoints(rows: readonly RateRow[], codes: readonly string[], bucket: TimeBucket, band: string | null): Point[] {
  const out: Point[] = [];
  const keyed = rows.filter((r) => r.key !== null);
  keyed.forEach((r, i) => {
    const p: Point = { t: dayMs(r.key!), key: r.key, tool_use_turns: r.tool_use_turns };
    for (const code of codes) {
      const c = r.codes.find((x) => x.code === code);
      const rate = c?.per_1000_opportunities ?? null; // null: not measurable, a gap
      p[code] = rate === null ? null : rate.rate;
      p[`${code}__count`] = c?.count ?? 0;
      p[`${code}__n`] = c?.opportunities ?? 0;
      p[`${code}__high`] = rate?.high ?? null;
      // A band only for the focused code and only where it has findings: a zero draws none.
      p[`${code}__band`] = code === band && rate !== null && (c?.count ?? 0) > 0 ? [rate.low, rate.high] : null;
    }
    out.push(p);
    const next = keyed[i + 1];
    if (next && next.key! > nextBucket(r.key!, bucket)) {
      const gap: Point = { t: dayMs(nextBucket(r.key!, bucket)), key: null, tool_use_turns: null };
      for (const code of codes) gap[code] = null;
      out.push(gap);
    }
  });
  return out;
}

/** The y-axis top: fits the observed rates (not the intervals), rounded up. */
export function rateDomainTop(points: readonly Point[], codes: readonly string[]): number {
  let max = 0;
  for (const p of points) for (const c of codes) if (typeof p[c] === 'number') max = Math.max(max, p[c] as number);
  if (max <= 0) return 1;
  const mag = 10 ** Math.floor(Math.log10(max * 1.15));
  return Math.ceil((max * 1.15) / mag) * mag;
}

const BUCKET_WORD: Record<TimeBucket, string> = { day: 'day', week: 'week (from Monday)', month: 'month' };

/**
 * Rate per 1,000 of each code's own opportunities, per day, week or month, on a real time
 * axis (years marked, gaps to scale), the tool-use turns as bars on a second axis, and markers
 * only where a verdict or the user names a version. Receives rows; never fetches.
 */
export function RateTimeChart({
  rows,
  bucket,
  codes,
  markers,
  height,
  compact = false,
  onRange,
  hiddenCount = 0,
  showHidden,
  onToggleHidden,
  testId = 'timeline-chart',
}: {
  rows: readonly RateRow[];
  bucket: TimeBucket;
  codes: readonly string[];
  markers: readonly ChartMarker[];
  height: number;
  compact?: boolean;
  onRange?: (from: string, to: string) => void;
  hiddenCount?: number;
  showHidden?: boolean;
  onToggleHidden?: () => void;
  testId?: string;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [focused, setFocused] = useState<string | null>(null);
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const brushRange = useRef<{ startIndex?: number; endIndex?: number } | null>(null);
  const points = timePoints(rows, codes, bucket, focused ?? (codes.length === 1 ? codes[0]! : null));
  const real = points.filter((p) => p.key !== null);
  const t0 = real[0]?.t ?? 0;
  const t1 = real[real.length - 1]?.t ?? t0 + 86_400_000;
  const plotWidth = Math.max(120, width - (compact ? 66 : 114));
  const { ticks, label } = timeTicks(t0, t1, plotWidth);
  const top = rateDomainTop(points, codes);
  const barSize = Math.max(1, Math.min(14, (plotWidth / Math.max(1, (t1 - t0) / 86_400_000 / (bucket === 'day' ? 1 : bucket === 'week' ? 7 : 30))) * 0.6));
  const keyAt = (i: number | undefined, dir: 1 | -1) => {
    if (i === undefined) return null;
    for (let j = i; j >= 0 && j < points.length; j += dir) if (points[j]!.key) return points[j]!.key as string;
    return null;
  };
  const indexOf = (s: { activeIndex?: unknown; activeTooltipIndex?: unknown }) => {
    const v = s.activeTooltipIndex ?? s.activeIndex;
    const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : Number.NaN;
    return Number.isInteger(n) ? n : null;
  };
  const visibleMarkers = markers.filter((m) => dayMs(m.day) >= t0 && dayMs(m.day) <= t1 + 31 * 86_400_000);

  return (
    <div className="chart" data-testid={testId} data-points={real.length} data-bucket={bucket} ref={ref}>
      <ComposedChart
        width={width}
        height={height}
        data={points}
        margin={{ top: 22, right: 8, bottom: 4, left: 0 }}
        onMouseDown={(s) => {
          const i = indexOf(s as never);
          if (onRange && i !== null) setDrag({ a: i, b: i });
        }}
        onMouseMove={(s) => {
          const i = indexOf(s as never);
          if (drag && i !== null && i !== drag.b) setDrag({ a: drag.a, b: i });
        }}
        onMouseUp={() => {
          if (drag && onRange && drag.a !== drag.b) {
            const [lo, hi] = drag.a < drag.b ? [drag.a, drag.b] : [drag.b, drag.a];
            const from = keyAt(lo, 1);
            const to = keyAt(hi, -1);
            if (from && to && from <= to) onRange(from, lastDayOf(to, bucket));
          }
          setDrag(null);
        }}
      >
        <CartesianGrid stroke="var(--grid)" vertical={false} />
        <XAxis
          dataKey="t"
          type="number"
          scale="time"
          domain={[t0, t1]}
          ticks={ticks}
          tickFormatter={(t: number) => label(t)}
          stroke="var(--muted)"
          fontSize={12}
          interval={0}
        />
        <YAxis
          yAxisId="rate"
          stroke="var(--muted)"
          fontSize={12}
          width={58}
          domain={[0, top]}
          allowDataOverflow
          tickFormatter={(v: number) => formatPerMille(v)}
        />
        {!compact && <YAxis yAxisId="turns" orientation="right" stroke="var(--muted)" fontSize={12} width={48} tickFormatter={(v: number) => formatCount(v)} />}
        <Tooltip
          allowEscapeViewBox={{ x: false, y: false }}
          wrapperStyle={{ pointerEvents: 'none', zIndex: 5 }}
          content={({ active, payload }) => {
            const p = (payload?.[0]?.payload ?? null) as Point | null;
            if (!active || !p?.key) return null;
            return <TimelineTooltip point={p} codes={codes} bucket={bucket} />;
          }}
        />
        {!compact && (
          <Bar
            yAxisId="turns"
            dataKey="tool_use_turns"
            name="tool-use turns"
            fill="var(--bar)"
            className="denominator-bar"
            isAnimationActive={false}
            barSize={barSize}
          />
        )}
        {codes.map((code) => (
          <Area
            key={`${code}-band`}
            yAxisId="rate"
            dataKey={`${code}__band`}
            stroke="none"
            fill={codeColor(code)}
            fillOpacity={0.18}
            legendType="none"
            isAnimationActive={false}
            connectNulls={false}
            className={`rate-band rate-band-${code}`}
          />
        ))}
        {codes.map((code) => (
          <Line
            key={code}
            yAxisId="rate"
            dataKey={code}
            name={codeLabel(code)}
            stroke={codeColor(code)}
            strokeDasharray={codeDash(code)}
            strokeWidth={focused === code ? 3 : 2}
            dot={real.length < 40 ? { r: 2 } : false}
            className={`rate-line rate-line-${code}`}
            isAnimationActive={false}
            connectNulls={false}
          />
        ))}
        {visibleMarkers.map((m, i) => (
          <ReferenceLine
            key={`${m.kind}-${m.day}-${m.label}`}
            yAxisId="rate"
            x={Math.max(t0, dayMs(m.day))}
            stroke={m.kind === 'first-bad' ? 'var(--danger, #cc3311)' : 'var(--muted)'}
            strokeDasharray={m.kind === 'first-bad' ? undefined : '3 3'}
            strokeWidth={m.kind === 'first-bad' ? 2 : 1}
            className={m.kind === 'first-bad' ? 'first-bad-marker version-marker' : 'version-marker'}
            label={{
              value: m.label,
              // Text runs away from the nearer edge, so it never reaches the axes.
              position: `${i % 2 === 0 ? 'insideTop' : 'insideBottom'}${dayMs(m.day) - t0 > (t1 - t0) / 2 ? 'Right' : 'Left'}` as 'insideTopLeft',
              fontSize: 11,
              fill: m.kind === 'first-bad' ? 'var(--danger, #cc3311)' : 'var(--muted)',
            }}
          />
        ))}
        {drag && drag.a !== drag.b && points[drag.a] && points[drag.b] && (
          <ReferenceArea yAxisId="rate" x1={points[drag.a]!.t} x2={points[drag.b]!.t} fill="var(--accent)" fillOpacity={0.12} />
        )}
        {!compact && onRange && points.length > 1 && (
          <Brush
            dataKey="t"
            height={22}
            stroke="var(--accent)"
            fill="var(--surface)"
            tickFormatter={() => ''}
            onChange={(range) => {
              // Commit once, when the pointer is released: committing on every move refetched
              // mid-drag and snapped the brush back.
              if (brushRange.current === null) {
                const commit = () => {
                  window.removeEventListener('pointerup', commit);
                  window.removeEventListener('mouseup', commit);
                  window.removeEventListener('touchend', commit);
                  const r = brushRange.current;
                  brushRange.current = null;
                  if (!r || r.startIndex === undefined || r.endIndex === undefined) return;
                  const from = keyAt(r.startIndex, 1);
                  const to = keyAt(r.endIndex, -1);
                  if (from && to && from <= to && (r.startIndex > 0 || r.endIndex < points.length - 1)) onRange(from, lastDayOf(to, bucket));
                };
                window.addEventListener('pointerup', commit);
                window.addEventListener('mouseup', commit);
                window.addEventListener('touchend', commit);
              }
              brushRange.current = range as { startIndex?: number; endIndex?: number };
            }}
          />
        )}
      </ComposedChart>
      <CodeLegend codes={codes} focused={focused} onFocus={setFocused} hidden={hiddenCount} showHidden={showHidden} onToggleHidden={onToggleHidden} />
      {!compact && (
        <p className="muted small chart-note">
          One point per {BUCKET_WORD[bucket]}; a gap where there were no messages or the code is not measurable.
          {onRange ? ' Drag across the plot or move the brush to zoom.' : ''}
        </p>
      )}
    </div>
  );
}

/** The last day a bucket covers, so a zoom to a week or month keeps all of it. */
export function lastDayOf(key: string, bucket: TimeBucket): string {
  if (bucket === 'day') return key;
  return new Date(dayMs(nextBucket(key, bucket)) - 86_400_000).toISOString().slice(0, 10);
}

/** Sorted by value, without zeros, at most eight lines: the rest counted. */
function TimelineTooltip({ point, codes, bucket }: { point: Point; codes: readonly string[]; bucket: TimeBucket }) {
  const items = codes
    .map((code) => ({ code, rate: point[code] as number | null, count: point[`${code}__count`] as number, n: point[`${code}__n`] as number }))
    .filter((x) => x.rate !== null && x.count > 0)
    .sort((a, b) => b.rate! - a.rate!);
  const shown = items.slice(0, 8);
  const zeros = codes.filter((code) => point[code] === 0);
  return (
    <div className="chart-tooltip" data-testid="chart-tooltip">
      <div className="chart-tooltip-title">
        {bucket === 'day' ? point.key : `${bucket} of ${point.key}`} · {formatCount(Number(point.tool_use_turns ?? 0))} tool-use turns
      </div>
      {shown.map((x) => (
        <div key={x.code} className="chart-tooltip-row">
          <span className="dot" style={{ background: codeColor(x.code) }} />
          {codeLabel(x.code)}: {formatPerMille(x.rate!)} ({x.count} in {formatCount(x.n)})
        </div>
      ))}
      {items.length > shown.length && <div className="muted">+{items.length - shown.length} more</div>}
      {shown.length === 0 && (
        <div className="muted">
          no findings
          {zeros.length === 1 ? ` in ${formatCount(point[`${zeros[0]}__n`] as number)} (≤ ${formatPerMille(point[`${zeros[0]}__high`] as number)})` : ''}
        </div>
      )}
    </div>
  );
}
