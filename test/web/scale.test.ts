import { describe, expect, it } from 'vitest';
import { codeRate } from '../../server/query/get-rates';
import type { VerdictCard } from '../../shared/api-schemas';
import { FINDING_CODES } from '../../shared/finding-codes';
import { codeColor, PALETTE } from '../../web/src/charts/colors';
import { chartMarkers } from '../../web/src/charts/markers';
import {
  autoBucket,
  bucketOf,
  codesWithFindings,
  describeFold,
  foldDays,
  foldVersions,
  formatCell,
  formatZero,
  measurableCodes,
  poolRows,
  thinInterval,
  timeTicks,
} from '../../web/src/charts/scale';
import { parseSideText, sidesConflict } from '../../web/src/features/compare/compare-sides';
import { rateRowsCsv, toCsv } from '../../web/src/lib/csv';
import type { KeyedRow as RateRow } from '../../web/src/lib/keyed-rows';

const d = (turns: number, captures = 0) => ({ assistant_messages: turns + 5, tool_use_turns: turns, stop_known_messages: turns, capture_messages: captures });
function row(key: string | null, turns: number, missing = 0, captures = 0): RateRow {
  const den = d(turns, captures);
  return { key, ...den, codes: FINDING_CODES.map((c) => codeRate(c, c === 'missing_tool_use_block' ? missing : 0, den)) };
}
const versions = (n: number) => Array.from({ length: n }, (_, i) => `2.1.${i}`);

describe('folding the version axis', () => {
  it('leaves a short axis alone', () => {
    const cols = foldVersions(versions(10).map((v) => row(v, 50)));
    expect(cols).toHaveLength(10);
    expect(cols.every((c) => !c.folded)).toBe(true);
  });

  it('folds 120 versions into at most 30 columns, keeping versions with findings and busy ones alone, pooling the rest', () => {
    const rows = versions(120).map((v, i) => row(v, i === 70 ? 900 : i % 40 === 5 ? 400 : 20, i >= 70 && i < 75 ? 3 : 0));
    const cols = foldVersions(rows, { maxColumns: 30 });
    expect(cols.length).toBeLessThanOrEqual(31);
    expect(cols.find((c) => c.key === '2.1.70')?.folded).toBe(false);
    expect(cols.find((c) => c.key === '2.1.5')?.folded).toBe(false);
    // Every version is in exactly one column, in order.
    expect(cols.flatMap((c) => c.versions)).toEqual(versions(120));
    // A range pools its versions' counts and opportunities.
    const range = cols.find((c) => c.folded)!;
    expect(range.row.tool_use_turns).toBe(range.versions.reduce((n, v) => n + rows.find((r) => r.key === v)!.tool_use_turns, 0));
    expect(describeFold(range)).toMatch(
      new RegExp(`^${range.versions[0]}–${range.versions.at(-1)}, ${range.versions.length} versions, [\\d,]+ tool-use turns$`),
    );
  });

  it('keeps the versions asked for (an opened range) standalone', () => {
    const rows = versions(120).map((v) => row(v, 20));
    const keep = ['2.1.43', '2.1.44', '2.1.45'];
    const cols = foldVersions(rows, { keep });
    for (const k of keep) expect(cols.find((c) => c.key === k)?.folded).toBe(false);
  });

  it('pools rates from the sums, and keeps "not measurable" where every row has no opportunities', () => {
    const pooled = poolRows('x', [row('a', 100, 1), row('b', 300, 3)]);
    const m = pooled.codes.find((c) => c.code === 'missing_tool_use_block')!;
    expect(m).toMatchObject({ count: 4, opportunities: 400 });
    expect(m.per_1000_opportunities!.rate).toBe(10);
    const z = pooled.codes.find((c) => c.code === 'zero_delta_tool_use')!;
    expect(z.per_1000_opportunities).toBeNull();
    expect(z.not_measurable).toBe('no_captures');
  });
});

describe('folding days', () => {
  it('picks days for three months, weeks for a year, months beyond', () => {
    expect(autoBucket('2026-01-01', '2026-03-01')).toBe('day');
    expect(autoBucket('2025-09-01', '2026-08-31')).toBe('week');
    expect(autoBucket('2023-01-01', '2026-08-31')).toBe('month');
  });
  it('names weeks by their Monday and months by their first day, and pools them', () => {
    expect(bucketOf('2026-06-07', 'week')).toBe('2026-06-01'); // a Sunday
    expect(bucketOf('2026-06-01', 'week')).toBe('2026-06-01');
    expect(bucketOf('2026-06-17', 'month')).toBe('2026-06-01');
    const weeks = foldDays([row('2026-06-01', 10, 1), row('2026-06-03', 30), row('2026-06-09', 5)], 'week');
    expect(weeks.map((w) => [w.key, w.tool_use_turns])).toEqual([
      ['2026-06-01', 40],
      ['2026-06-08', 5],
    ]);
  });
});

describe('time ticks and label thinning', () => {
  const t = (day: string) => Date.parse(`${day}T00:00:00Z`);
  it('a year on 1,200 px: months, the year named where it changes, never closer than the gap', () => {
    const { ticks, label } = timeTicks(t('2025-09-01'), t('2026-08-31'), 1200);
    const labels = ticks.map(label);
    expect(labels).toContain('Jan 2026');
    expect(labels[0]).toMatch(/2025$/);
    for (let i = 1; i < ticks.length; i++) expect(((ticks[i]! - ticks[i - 1]!) / (t('2026-08-31') - t('2025-09-01'))) * 1200).toBeGreaterThanOrEqual(72);
  });
  it('a year on 300 px: fewer, wider ticks', () => {
    const { ticks } = timeTicks(t('2025-09-01'), t('2026-08-31'), 300);
    expect(ticks.length).toBeLessThanOrEqual(4);
    expect(ticks.length).toBeGreaterThanOrEqual(1);
  });
  it('six weeks: day ticks with the month', () => {
    const { ticks, label } = timeTicks(t('2026-05-01'), t('2026-06-11'), 1100);
    expect(label(ticks[1]!)).toMatch(/^(May|Jun) \d+$/);
  });
  it('thins category labels to what fits', () => {
    expect(thinInterval(10, 1000, 20)).toBe(0);
    expect(thinInterval(30, 300, 16)).toBe(1);
    expect(thinInterval(120, 300, 16)).toBe(6);
  });
});

describe('words for zeros and cells', () => {
  it('a zero is a bound, not a band', () => {
    expect(formatZero(412, { rate: 0, low: 0, high: 8.9 })).toBe('0 in 412 tool-use turns (≤ 8.9‰)');
    const r = row('v', 300);
    expect(formatCell(r.codes.find((c) => c.code === 'orphan_tool_use')!)).toMatch(/^0 in 300 opportunities \(≤ [\d.]+‰\)$/);
    expect(formatCell(row('v', 300, 3).codes[0]!)).toMatch(/^3 · 10‰ \(95% CI/);
    expect(formatCell(r.codes.find((c) => c.code === 'input_mismatch')!)).toBe('not measurable (no stream captures indexed)');
  });
  it('finds the codes with findings and the ones measurable at all', () => {
    const rows = [row('a', 100, 2), row('b', 0)];
    expect(codesWithFindings(rows, FINDING_CODES)).toEqual(['missing_tool_use_block']);
    const m = measurableCodes(rows, FINDING_CODES);
    expect(m).not.toContain('zero_delta_tool_use');
    expect(m).toContain('orphan_tool_use');
  });
});

describe('colours', () => {
  it('one distinct colour per code', () => {
    expect(new Set(FINDING_CODES.map((c) => codeColor(c))).size).toBe(FINDING_CODES.length);
    expect(PALETTE.length).toBeGreaterThanOrEqual(FINDING_CODES.length);
  });
});

describe('compare sides typed by hand', () => {
  const known = ['2.1.36', '2.1.37', '2.1.38', '2.1.39', '2.1.40'];
  it('reads what exists and refuses the rest with a message', () => {
    expect(parseSideText('2.1.36..2.1.38', known)).toEqual({ kind: 'versions', versions: ['2.1.36', '2.1.37', '2.1.38'] });
    expect(parseSideText('2.1.36..2.1.392.19', known)).toEqual({ error: '"2.1.392.19" is not a version (like 2.1.40)' });
    expect(parseSideText('2.1.99', known)).toEqual({ error: 'version 2.1.99 is not in the index' });
    expect(parseSideText('2.1.38..2.1.200', known)).toEqual({ kind: 'versions', versions: ['2.1.38', '2.1.39', '2.1.40'] });
    expect(parseSideText('2.1.50..2.1.200', known)).toEqual({ error: 'no indexed version in 2.1.50..2.1.200' });
    expect(parseSideText('2.1.40..2.1.36', known)).toMatchObject({ error: expect.stringContaining('did you mean 2.1.36..2.1.40') });
    expect(parseSideText('', known)).toMatchObject({ error: expect.stringContaining('empty') });
    expect(parseSideText('2026-07-01..2026-07-09', known, { first: '2026-05-01', last: '2026-06-11' })).toMatchObject({
      error: expect.stringContaining('no indexed day'),
    });
  });
  it('refuses overlapping and mixed sides', () => {
    const a = parseSideText('2.1.36..2.1.38', known) as Exclude<ReturnType<typeof parseSideText>, { error: string }>;
    const b = parseSideText('2.1.38..2.1.40', known) as typeof a;
    expect(sidesConflict(a, b)).toContain('2.1.38');
    expect(sidesConflict(a, parseSideText('2.1.39', known) as typeof a)).toBeNull();
    expect(sidesConflict(a, { kind: 'days', from: '2026-05-01', to: '2026-05-02' })).toContain('versions with versions');
  });
});

describe('CSV and markers', () => {
  it('quotes what needs quoting', () => {
    expect(toCsv([{ a: 'x,y', b: 'say "hi"', c: null }])).toBe('a,b,c\r\n"x,y","say ""hi""",\r\n');
    const csv = rateRowsCsv([row('2.1.40', 200, 2)], 'version');
    expect(csv[0]).toMatchObject({ version: '2.1.40', tool_use_turns: 200, missing_tool_use_block_count: 2, missing_tool_use_block_per_1000: 10 });
    expect(csv[0]!.input_mismatch_per_1000).toBeNull();
  });
  it('marks only versions a verdict names or the user picks', () => {
    const card = {
      id: 'x',
      dimension: 'version',
      strength: 'strong',
      strength_text: '',
      last_good: '2.1.39',
      first_bad: '2.1.40',
      codes: [],
      test: '',
    } as VerdictCard;
    const thin = { ...card, id: 'y', strength: 'insufficient', first_bad: '2.1.38' } as VerdictCard;
    const markers = chartMarkers(
      [card, thin],
      ['2.1.38', '2.1.39', '2.1.40', '2.1.41'].map((v, i) => ({ version: v, first_day: `2026-05-0${i + 1}` })),
      ['2.1.41'],
    );
    expect(markers).toEqual([
      { day: '2026-05-03', label: 'first bad: 2.1.40', kind: 'first-bad' },
      { day: '2026-05-04', label: '2.1.41', kind: 'version' },
    ]);
  });
});
