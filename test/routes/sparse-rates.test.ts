import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRateRows } from '../../server/query/get-rates';
import { getVersionModelRates } from '../../server/query/get-version-model-rates';
import { FINDING_CODES } from '../../shared/finding-codes';
import { expandRates } from '../../shared/sparse-rates';
import { type TestApp, testApp } from '../support/api-app';
import { fixturesRoot } from '../support/detector-fixtures';

// The demo corpus: several versions, models and days, some codes with findings and most without.
let t: TestApp;
beforeAll(async () => {
  t = await testApp([join(fixturesRoot, 'demo/projects')]);
});
afterAll(() => t.close());

describe('rate answers are sparse, and the page rebuilds them exactly (issue 32)', () => {
  const cases = [
    ['/api/timeline', () => getRateRows(t.db, 'day', {})],
    ['/api/timeline?bucket=week', () => getRateRows(t.db, 'week', {})],
    ['/api/versions', () => getRateRows(t.db, 'version', {})],
    ['/api/version-models', () => getVersionModelRates(t.db, {})],
    ['/api/versions?code=missing_tool_use_block', () => getRateRows(t.db, 'version', { codes: ['missing_tool_use_block'] })],
  ] as const;

  it.each(cases)('%s: each row holds only the codes it counts findings of', async (url) => {
    const { json } = await t.get(url);
    expect(json.rows.length).toBeGreaterThan(0);
    for (const row of json.rows) for (const c of row.codes) expect(c.count, `${url} ${c.code}`).toBeGreaterThan(0);
  });

  it.each(cases)('%s: expanded, the answer is the query layer’s rows, every code and figure alike', async (url, whole) => {
    const { json } = await t.get(url);
    const expanded = expandRates(json);
    const rows = whole() as Array<Record<string, unknown>>;
    expect(expanded.length).toBe(rows.length);
    expanded.forEach((row, i) => {
      const { key: _key, ...figures } = rows[i]!;
      expect(row).toMatchObject(figures);
      expect(row.codes).toEqual(figures.codes);
    });
  });

  it('names every code once, and lists the ones with no finding anywhere with their opportunities summed', async () => {
    const { json } = await t.get('/api/versions');
    expect(json.codes).toEqual([...FINDING_CODES]);
    const whole = getRateRows(t.db, 'version', {});
    const counted = new Set(whole.flatMap((r) => r.codes.filter((c) => c.count > 0).map((c) => c.code)));
    expect(counted.size).toBeGreaterThan(0);
    expect(json.quiet_codes.map((q: { code: string }) => q.code)).toEqual(FINDING_CODES.filter((c) => !counted.has(c)));
    for (const q of json.quiet_codes as Array<{ code: string; opportunity: string; opportunities: number }>) {
      const sum = whole.reduce((n, r) => n + r.codes.find((c) => c.code === q.code)!.opportunities, 0);
      expect(q.opportunities, q.code).toBe(sum);
      expect(q.opportunity).toBe(whole[0]!.codes.find((c) => c.code === q.code)!.opportunity);
    }
  });

  it('an answer without `codes` (rows already whole) is kept as it is', () => {
    const rows = getRateRows(t.db, 'version', {});
    expect(expandRates({ rows })).toEqual(rows);
  });
});
