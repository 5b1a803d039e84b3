import { useRef, useState } from 'react';
import { Area, Bar, Brush, CartesianGrid, ComposedChart, Line, ReferenceArea, ReferenceLine, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import { codeLabel, formatCount, formatPerMille } from '../lib/format';
import type { KeyedRow as RateRow } from '../lib/keyed-rows';
import { CodeLegend } from './CodeLegend';
import { markClipped, rateDomainTop, type TimePoint, thinMarkers, timePoints } from './chart-data';
import { codeColor, codeDash } from './colors';
import type { ChartMarker } from './markers';
import { dayMs, nextBucket, type TimeBucket, timeTicks } from './scale';
import { useWidth } from './use-width';

const BUCKET_WORD: Record<TimeBucket, string> = { day: 'day', week: 'week (from Monday)', month: 'month' };

/**
 * The one time chart: rate per 1,000 of each code's own opportunities, per day, week or month,
 * on a real time axis (years marked, gaps to scale), the tool-use turns as bars on a second
 * axis, and markers only where a verdict or the user names a version. A band (the 95% interval)
 * for the code hovered in the legend, or for every code with `allBands` (a picture to download);
 * a band that runs past the axis top ends in a mark. `keepLabels` thins marker labels so no two
 * overlap, the ones it names first. Receives rows; never fetches.
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
  allBands = false,
  keepLabels,
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
  allBands?: boolean;
  keepLabels?: readonly string[];
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [focused, setFocused] = useState<string | null>(null);
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const brushRange = useRef<{ startIndex?: number; endIndex?: number } | null>(null);
  const banded = allBands ? codes : focused ? [focused] : codes.length === 1 ? [codes[0]!] : [];
  const points = timePoints(rows, codes, bucket, banded);
  const real = points.filter((p) => p.key !== null);
  const t0 = real[0]?.t ?? 0;
  const t1 = real[real.length - 1]?.t ?? t0 + 86_400_000;
  const plotWidth = Math.max(120, width - (compact ? 66 : 114));
  const { ticks, label } = timeTicks(t0, t1, plotWidth);
  const top = rateDomainTop(points, codes);
  const clipped = markClipped(points, banded, top);
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
  const inRange = markers.filter((m) => dayMs(m.day) >= t0 && dayMs(m.day) <= t1 + 31 * 86_400_000);
  // About one label per 70 px; neighbours alternate between the top and the bottom row.
  const xOf = (day: string) => ((Math.max(t0, dayMs(day)) - t0) / Math.max(1, t1 - t0)) * plotWidth;
  const visibleMarkers = keepLabels ? thinMarkers(inRange, xOf, 70, keepLabels) : inRange;

  return (
    <div className="chart" data-testid={testId} data-points={real.length} data-bucket={bucket} data-top={top} data-clipped={clipped} ref={ref}>
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
            const p = (payload?.[0]?.payload ?? null) as TimePoint | null;
            if (!active || !p?.key) return null;
            return <TimelineTooltip point={p} codes={codes} bucket={bucket} top={top} />;
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
        {banded.map((code) => (
          <Scatter
            key={`${code}-clipped`}
            yAxisId="rate"
            dataKey={`${code}__clipped`}
            name={`${codeLabel(code)} interval clipped`}
            legendType="none"
            shape="triangle"
            fill={codeColor(code)}
            stroke="var(--text)"
            className="clip-mark"
            isAnimationActive={false}
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
function TimelineTooltip({ point, codes, bucket, top }: { point: TimePoint; codes: readonly string[]; bucket: TimeBucket; top: number }) {
  const items = codes
    .map((code) => ({
      code,
      rate: point[code] as number | null,
      count: point[`${code}__count`] as number,
      n: point[`${code}__n`] as number,
      clipped: point[`${code}__clipped`] != null ? (point[`${code}__high`] as number) : null,
    }))
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
          {x.clipped !== null && x.clipped > top && `; interval runs to ${formatPerMille(x.clipped)} (above the axis)`}
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
