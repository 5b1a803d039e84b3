import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatCodeFigure, formatCoverage, formatRateWithInterval } from '../../server/query/format-rate';
import { getComparison } from '../../server/query/get-comparison';
import type { RateRow } from '../../server/query/get-rates';
import { codeRate, denominatorsOf } from '../../server/query/get-rates';
import { cellsOf, dayVerdict, getRegressions, MIN_OPPORTUNITIES, versionVerdict } from '../../server/query/get-regressions';
import { FINDING_OPPORTUNITY } from '../../shared/denominators';
import { FINDING_CODES, type FindingCode } from '../../shared/finding-codes';
import { indexedDemoCorpus } from '../support/fixture-cache';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-regr-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The demo corpus (seed 31, 600 sessions), generated and indexed once per run for every file that asks (test/support/fixture-cache.ts); this file's own copy of the index. */
async function indexed(name: string, regression: 'from-2.1.40' | 'none') {
  return (await indexedDemoCorpus({ seed: 31, sessions: 600, canary: 'REGRCANARY', regression }, join(tmp, name))).db;
}

describe('regression verdicts on generated corpora', () => {
  it('names 2.1.40 as the first bad version (and 2.1.39 the last good) where the regression starts there', async () => {
    const db = await indexed('regressed', 'from-2.1.40');
    const r = getRegressions(db);
    db.close();
    for (const code of ['missing_tool_use_block', 'empty_tool_input_with_error_result']) {
      const v = r.verdicts.find((x) => x.code === code && x.model === null && x.dimension === 'version')!;
      expect(v).toMatchObject({ status: 'regression', last_good: '2.1.39', first_bad: '2.1.40' });
      expect(v.p_value!).toBeLessThan(v.threshold!);
      expect(v.summary).toMatch(/up to 2\.1\.39 \(n=\d+\), [\d.]+‰ from 2\.1\.40 \(n=\d+\), p=/);
      const d = r.verdicts.find((x) => x.code === code && x.model === null && x.dimension === 'day')!;
      expect(d.status).toBe('regression');
    }
  });

  it('names nothing where every version fails at the same rate', async () => {
    const db = await indexed('steady', 'none');
    const r = getRegressions(db);
    const cmp = getComparison(db, '2.1.36..2.1.39', '2.1.40..2.1.42', {});
    db.close();
    const overall = r.verdicts.filter((x) => x.model === null);
    expect(overall.length).toBe(2 * FINDING_CODES.length);
    // The demo corpus has no stream captures: the capture codes are not measurable, never "no regression".
    for (const v of overall) expect(v.status).toBe(FINDING_OPPORTUNITY[v.code as FindingCode] === 'capture_messages' ? 'not_measurable' : 'no_regression');
    const core = cmp.rows.filter((c) => ['missing_tool_use_block', 'empty_tool_input_with_error_result'].includes(c.code));
    expect(core.every((c) => c.a.count > 0 && c.b.count > 0 && (c.p_value ?? 0) > 0.01)).toBe(true);
  });
});

describe('verdict rules', () => {
  const cells = (...xs: Array<[string, number, number]>) => xs.map(([key, k, n]) => ({ key, k, n }));

  it('says nothing, and why, when no version has enough tool-use turns', () => {
    const v = versionVerdict('c', null, cells(['1.0.0', 0, 50], ['1.0.1', 3, 60]));
    expect(v.status).toBe('insufficient_data');
    expect(v.summary).toContain(`${MIN_OPPORTUNITIES} tool-use turns`);
    expect(dayVerdict('c', null, cells(['2026-05-01', 0, 50], ['2026-05-02', 3, 60])).status).toBe('insufficient_data');
  });

  it('corrects for the number of versions tested', () => {
    // 3 of 500 against 0 of 1,200: one-sided p = C(500,3)/C(1700,3) = 0.0253, below 0.05 alone but not below 0.05/2.
    const two = versionVerdict('c', null, cells(['1', 0, 600], ['2', 0, 600], ['3', 3, 500]));
    expect(two.p_value).toBeNull();
    expect(two.tests).toBe(2);
    expect(two.status).toBe('no_regression');
    const one = versionVerdict('c', null, cells(['1', 0, 1200], ['3', 3, 500]));
    expect(one.tests).toBe(1);
    expect(one.status).toBe('regression');
    expect(one.p_value).toBeCloseTo(0.025335, 5);
  });

  it('pools every earlier version, small ones included, but tests only large enough versions', () => {
    const v = versionVerdict('c', 'm', cells(['1', 0, 1000], ['2', 4, 20], ['3', 30, 1000]));
    expect(v.tests).toBe(1); // version 2 is too small to be tested
    expect(v).toMatchObject({
      status: 'regression',
      last_good: '2',
      first_bad: '3',
      before: { count: 4, opportunities: 1020, opportunity: 'tool_use_turns', not_measurable: null },
    });
  });
});

describe('regressions over the opportunities of each code', () => {
  // Three versions: 2.1.20 records no stop reason (1,000 tool-use turns), 2.1.70 and 2.1.100 record every one.
  const row = (key: string, turns: number, stopKnown: number, missing: number): RateRow => {
    const d = denominatorsOf({ assistant_messages: turns, tool_use_turns: turns, stop_known_messages: stopKnown, capture_messages: 0, synthetic_messages: 0 });
    return { key, ...d, codes: [codeRate('missing_tool_use_block', missing, d), codeRate('orphan_tool_use', 0, d)] };
  };
  const rows = [row('2.1.20', 1000, 0, 0), row('2.1.70', 1000, 1000, 0), row('2.1.100', 1000, 1000, 20)];

  it('leaves out the versions where a code is not measurable, and tests the rest over its opportunities', () => {
    const { cells, notMeasurable } = cellsOf(rows, 'missing_tool_use_block');
    expect(notMeasurable).toEqual(['2.1.20']);
    expect(cells).toEqual([
      { key: '2.1.70', k: 0, n: 1000, t: 1000 },
      { key: '2.1.100', k: 20, n: 1000, t: 1000 },
    ]);
    const v = versionVerdict('missing_tool_use_block', null, cells, notMeasurable);
    expect(v).toMatchObject({
      status: 'regression',
      last_good: '2.1.70',
      first_bad: '2.1.100',
      tests: 1,
      opportunity: 'stop_known_messages',
      not_measurable: null,
      not_measurable_keys: ['2.1.20'],
      // Pooled over 2.1.70 only: the 1,000 turns of 2.1.20, where nothing could be seen, are not in it.
      before: { count: 0, opportunities: 1000, tool_use_turns: 1000, not_measurable: null },
      after: { count: 20, opportunities: 1000 },
    });
    expect(v.summary).toContain('per 1,000 messages with a recorded stop reason');
    expect(v.summary).toContain('Left out, not measurable (stop reason not recorded): 1 version (2.1.20).');
  });

  it('says "not measurable" when no version has opportunities, never "no regression"', () => {
    const legacy = [row('2.1.20', 1000, 0, 0), row('2.1.21', 1000, 0, 0)];
    const { cells, notMeasurable } = cellsOf(legacy, 'missing_tool_use_block');
    const v = versionVerdict('missing_tool_use_block', null, cells, notMeasurable);
    expect(v).toMatchObject({ status: 'not_measurable', not_measurable: 'stop_reason_not_recorded', tests: 0, p_value: null, before: null });
    expect(v.summary).toBe('missing_tool_use_block: not measurable (stop reason not recorded) in every version seen (2: 2.1.20–2.1.21); no claim.');
    const d = dayVerdict('missing_tool_use_block', null, cells, ['2026-05-01']);
    expect(d).toMatchObject({ status: 'not_measurable', not_measurable_keys: ['2026-05-01'] });
    // A code over tool-use turns is measurable in the same versions.
    const orphan = cellsOf(legacy, 'orphan_tool_use');
    expect(orphan.notMeasurable).toEqual([]);
    expect(versionVerdict('orphan_tool_use', null, orphan.cells, orphan.notMeasurable).status).toBe('no_regression');
  });
});

describe('text figures', () => {
  const d = denominatorsOf({ assistant_messages: 3, tool_use_turns: 2, stop_known_messages: 0, capture_messages: 0, synthetic_messages: 1 });

  it('prints a rate over opportunities, or the not-measurable sentence, never 0‰ over nothing', () => {
    expect(formatCodeFigure(codeRate('missing_tool_use_block', 0, d))).toBe('0 (not measurable (stop reason not recorded))');
    expect(formatCodeFigure(codeRate('orphan_tool_use', 1, d))).toBe('1 (500.00‰)');
    expect(formatRateWithInterval(codeRate('zero_delta_tool_use', 0, d))).toBe('not measurable (no stream captures indexed)');
    expect(formatRateWithInterval(codeRate('orphan_tool_use', 0, d))).toMatch(/^0\.00‰ \[0\.00–\d+\.\d\d\]$/);
  });

  it('prints coverage as a share, never rounding some-but-not-all to 0% or 100%', () => {
    expect(d.stop_reason_coverage).toBe(0);
    expect([formatCoverage(0, 3), formatCoverage(2, 3), formatCoverage(3, 3), formatCoverage(0, 0)]).toEqual(['0%', '66.7%', '100%', '–']);
    expect([formatCoverage(1, 100000), formatCoverage(99999, 100000)]).toEqual(['0.1%', '99.9%']);
  });
});
