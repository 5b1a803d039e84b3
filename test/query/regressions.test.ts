import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { getComparison } from '../../server/query/get-comparison';
import { dayVerdict, getRegressions, MIN_OPPORTUNITIES, versionVerdict } from '../../server/query/get-regressions';
import { openDatabase } from '../../server/store/database';
import { indexRoots } from '../../server/store/index-roots';
import { addRoot } from '../../server/store/roots';
import { FINDING_CODES, FINDING_OPPORTUNITY, type FindingCode } from '../../shared/finding-codes';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-regr-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function indexed(name: string, regression: 'from-2.1.40' | 'none') {
  generateDemoCorpus({ out: join(tmp, name), seed: 31, sessions: 600, canary: 'REGRCANARY', regression });
  const db = openDatabase(join(tmp, `${name}.db`));
  addRoot(db, join(tmp, name, 'projects'));
  await indexRoots(db, { analyser: 'inline' });
  return db;
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
    const core = cmp.codes.filter((c) => ['missing_tool_use_block', 'empty_tool_input_with_error_result'].includes(c.code));
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
