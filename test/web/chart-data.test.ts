import { describe, expect, it } from 'vitest';
import { codeRate } from '../../server/query/get-rates';
import { highestRates, timelineSeries, whiskerSeries } from '../../web/src/lib/chart-data';
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
    expect(p!.error![0]).toBeCloseTo(p!.rate - p!.low, 12);
    expect(p!.error![1]).toBeCloseTo(p!.high - p!.rate, 12);
    expect(whiskerSeries([row('2.1.41', 0, 0)], 'missing_tool_use_block')).toEqual([]);
  });

  it('ranks the highest rates among rows with enough turns', () => {
    const rows = [row('a', 10, 5), row('b', 100, 1), row('c', 100, 9), row('d', 100, 3)];
    expect(highestRates(rows, 'missing_tool_use_block', 30, 2).map((r) => r.key)).toEqual(['c', 'd']);
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
    const { resolveThemeColors } = await import('../../web/src/lib/chart-export');
    const styles = { getPropertyValue: (name: string) => ({ '--grid': ' #e6e9ee', '--muted': '#5b6470' })[name] ?? '' };
    expect(resolveThemeColors('<line stroke="var(--grid)"/><text fill="var(--muted)"/><rect fill="var(--unknown)"/>', styles)).toBe(
      '<line stroke="#e6e9ee"/><text fill="#5b6470"/><rect fill="#888888"/>',
    );
  });
});
