import { describe, expect, it } from 'vitest';
import { codeRate } from '../../server/query/get-rates';
import {
  markClipped,
  rateDomainTop,
  thinMarkers,
  timelineSeries,
  timePoints,
  whiskerPoint,
  whiskerRows,
  whiskerSeries,
  whiskerTop,
} from '../../web/src/charts/chart-data';
import type { KeyedRow as RateRow } from '../../web/src/lib/keyed-rows';
import { filtersFromSearch, toggleChip, toggleInList, toQueryString } from '../../web/src/lib/url-filters';

const row = (key: string | null, turns: number, missing: number): RateRow => {
  const d = { assistant_messages: turns + 5, tool_use_turns: turns, stop_known_messages: turns, capture_messages: 0 };
  return { key, ...d, codes: [codeRate('missing_tool_use_block', missing, d)] };
};

describe('chart data', () => {
  it('turns rate rows into timeline points with a band per code, leaving gaps where there are no turns', () => {
    const points = timelineSeries([row('2026-05-01', 1000, 4), row('2026-05-02', 0, 0), row(null, 10, 1)], ['missing_tool_use_block']);
    expect(points).toHaveLength(2);
    expect(points[0]).toMatchObject({ key: '2026-05-01', tool_use_turns: 1000, missing_tool_use_block: 4, missing_tool_use_block__count: 4 });
    const band = points[0]!.missing_tool_use_block__band as [number, number];
    expect(band[0]).toBeLessThan(4);
    expect(band[1]).toBeGreaterThan(4);
    expect(points[1]).toMatchObject({ missing_tool_use_block: null, missing_tool_use_block__band: null });
  });

  it('gives whiskers as distances below and above the rate', () => {
    const [p] = whiskerSeries([row('2.1.40', 500, 5)], 'missing_tool_use_block');
    expect(p!.rate).toBe(10);
    expect(p!.not_measurable).toBeNull();
    expect(p!.error![0]).toBeCloseTo(p!.rate! - p!.low, 12);
    expect(p!.error![1]).toBeCloseTo(p!.high - p!.rate!, 12);
  });

  it('keeps a row where the code is not measurable, flagged with the reason and without a rate (never a zero)', () => {
    const d = { assistant_messages: 40, tool_use_turns: 30, stop_known_messages: 0, capture_messages: 0 };
    const noStops: RateRow = { key: '2.1.20', ...d, codes: [codeRate('missing_tool_use_block', 0, d)] };
    const points = whiskerSeries([row('2.1.19', 300, 0), noStops, row(null, 0, 0)], 'missing_tool_use_block', new Map([['2.1.20', '2.1.20 alone']]));
    expect(points.map((p) => p.key)).toEqual(['2.1.19', '2.1.20', 'unknown']);
    // A measured zero: rate 0, no whisker, not flagged.
    expect(points[0]).toMatchObject({ rate: 0, error: null, count: 0, not_measurable: null });
    // Not measurable: kept, with the reason, no rate and no whisker.
    expect(points[1]).toMatchObject({ rate: null, error: null, not_measurable: 'stop_reason_not_recorded', tool_use_turns: 0, label: '2.1.20 alone' });
    expect(points[2]).toMatchObject({ rate: null, not_measurable: 'stop_reason_not_recorded' });
    // A code the row does not carry at all is not measurable either, not a zero.
    expect(whiskerSeries([row('2.1.21', 100, 1)], 'unparseable_tool_input')[0]).toMatchObject({ rate: null, not_measurable: 'no_opportunities' });
    // Drawn: the not-measurable column reaches the axis top (a hatched column); the zero draws nothing.
    const drawn = whiskerRows(points, whiskerTop(points));
    expect(drawn.map((p) => p.not_measurable_mark)).toEqual([null, 1, 1]);
    expect(drawn.every((p) => p.clipped === null)).toBe(true);
  });

  it('scales the axis to the rates and flags whiskers that run past its top as clipped', () => {
    // 1 in 20 (50‰, interval to ~236‰) and 30 in 1,000 (30‰, interval to ~43‰).
    const points = whiskerSeries([row('2.1.50', 20, 1), row('2.1.51', 1000, 30), row('2.1.52', 1000, 0)], 'missing_tool_use_block');
    const top = whiskerTop(points);
    expect(top).toBe(60); // 50‰ × 1.15 rounded up, not the 236‰ whisker
    const drawn = whiskerRows(points, top);
    expect(drawn[0]!.high).toBeGreaterThan(top);
    expect(drawn.map((p) => p.clipped)).toEqual([60, null, null]);
    // A zero's bound may pass the top, but it draws no whisker, so nothing is clipped.
    expect(drawn[2]!.high).toBeGreaterThan(0);
    expect(drawn.map((p) => p.not_measurable_mark)).toEqual([null, null, null]);
    // Nothing measured: a 1‰ axis, not an empty one.
    expect(whiskerTop([])).toBe(1);
  });

  it('builds a Compare side the same way: a side without opportunities is not measurable, not 0', () => {
    expect(whiskerPoint('A', { count: 0, opportunities: 0, interval: null, not_measurable: 'no_tool_use_turns' })).toMatchObject({
      key: 'A',
      rate: null,
      error: null,
      not_measurable: 'no_tool_use_turns',
    });
    expect(whiskerPoint('B', { count: 2, opportunities: 100, interval: { rate: 20, low: 5, high: 70 }, not_measurable: null })).toMatchObject({
      rate: 20,
      error: [15, 50],
      not_measurable: null,
    });
  });

  it('draws each code over its own opportunities: a day without recorded stop reasons is a gap for missing_tool_use_block, not 0', () => {
    // 1,000 tool-use turns but no message with a recorded stop reason (the 2.1.12–2.1.52 era).
    const d = { assistant_messages: 1005, tool_use_turns: 1000, stop_known_messages: 0, capture_messages: 0 };
    const noStops: RateRow = { key: '2026-05-03', ...d, codes: [codeRate('missing_tool_use_block', 0, d)] };
    const [p] = timelineSeries([noStops], ['missing_tool_use_block']);
    expect(p).toMatchObject({ missing_tool_use_block: null, missing_tool_use_block__band: null });
    // Where stop reasons are recorded, the rate is over them (4 in 500), not over the tool-use turns.
    const half = { ...d, stop_known_messages: 500 };
    const [q] = timelineSeries([{ key: '2026-05-04', ...half, codes: [codeRate('missing_tool_use_block', 4, half)] }], ['missing_tool_use_block']);
    expect(q!.missing_tool_use_block).toBe(8);
  });
});

describe('the time chart', () => {
  it('puts a gap point between buckets with none, and a band only on the codes asked for, where they have findings', () => {
    const rows = [row('2026-05-01', 20, 1), row('2026-05-02', 1000, 0), row('2026-05-04', 1000, 30)];
    const points = timePoints(rows, ['missing_tool_use_block'], 'day', ['missing_tool_use_block']);
    expect(points.map((p) => p.key)).toEqual(['2026-05-01', '2026-05-02', null, '2026-05-04']);
    expect(points[1]!.missing_tool_use_block__band).toBeNull(); // a zero draws no band
    expect(points[1]!.missing_tool_use_block__high).toBeGreaterThan(0); // but its bound is kept for the tooltip
    expect(timePoints(rows, ['missing_tool_use_block'], 'day', []).every((p) => !p.missing_tool_use_block__band)).toBe(true);
    // 1 in 20 (50‰, interval to ~236‰) runs past a top fitted to the rates: marked at the top, once.
    const top = rateDomainTop(points, ['missing_tool_use_block']);
    expect(top).toBe(60);
    expect(markClipped(points, ['missing_tool_use_block'], top)).toBe(1);
    expect(points.map((p) => p.missing_tool_use_block__clipped ?? null)).toEqual([60, null, null, null]);
  });

  it('thins marker labels to a gap, the kept ones first, and returns them by day', () => {
    const m = (day: string, label: string) => ({ day, label, kind: 'version' as const });
    const markers = [m('2026-05-01', '2.1.1'), m('2026-05-02', '2.1.2'), m('2026-05-03', '2.1.3'), m('2026-05-09', '2.1.4')];
    const x = (day: string) => Number(day.slice(8)) * 40; // 40 px a day
    expect(thinMarkers(markers, x, 70, []).map((k) => k.label)).toEqual(['2.1.1', '2.1.3', '2.1.4']);
    expect(thinMarkers(markers, x, 70, ['2.1.2']).map((k) => k.label)).toEqual(['2.1.2', '2.1.4']);
  });
});

describe('URL filters', () => {
  it('reads only known filters from the URL', () => {
    expect(filtersFromSearch(new URLSearchParams('code=a,b&from=2026-05-01&junk=1&sidechain=main'))).toEqual({
      code: 'a,b',
      from: '2026-05-01',
      sidechain: 'main',
    });
  });
  it('toggles values in a list and drops empty lists', () => {
    expect(toggleInList(undefined, 'x')).toBe('x');
    expect(toggleInList('x,y', 'x')).toBe('y');
    expect(toggleInList('x', 'x')).toBeUndefined();
  });
  it('toggles chips where no parameter means all on', () => {
    const all = ['a', 'b', 'c'];
    expect(toggleChip(undefined, 'b', all)).toBe('a,c');
    expect(toggleChip('a,c', 'b', all)).toBeUndefined();
    expect(toggleChip('a', 'a', all)).toBeUndefined();
    expect(toggleChip('c', 'a', all)).toBe('a,c');
  });
  it('builds query strings without empty values', () => {
    expect(toQueryString({ a: '1', b: undefined, c: '', d: null, e: 0 })).toBe('?a=1&e=0');
    expect(toQueryString({})).toBe('');
  });
});

describe('chart export', () => {
  it('resolves theme variables to colours so a downloaded chart looks the same outside the page', async () => {
    const { resolveThemeColors } = await import('../../web/src/charts/chart-export');
    const styles = { getPropertyValue: (name: string) => ({ '--grid': ' #e6e9ee', '--muted': '#5b6470' })[name] ?? '' };
    expect(resolveThemeColors('<line stroke="var(--grid)"/><text fill="var(--muted)"/><rect fill="var(--unknown)"/>', styles)).toBe(
      '<line stroke="#e6e9ee"/><text fill="#5b6470"/><rect fill="#888888"/>',
    );
  });
});
