import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getComparison } from '../../server/query/get-comparison';
import { buildCards, getRegressions, MIN_OPPORTUNITIES, SESSION_CAP } from '../../server/query/get-regressions';
import { indexedDemoCorpus } from '../support/fixture-cache';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-cards-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The demo corpus (seed 31, 600 sessions), generated and indexed once per run for every file that asks (test/support/fixture-cache.ts); this file's own copy of the index. */
async function indexed(name: string, regression: 'from-2.1.40' | 'none') {
  return (await indexedDemoCorpus({ seed: 31, sessions: 600, canary: 'REGRCANARY', regression }, join(tmp, name))).db;
}

const cell = (key: string, k: number, n: number, files: number[] = []) => ({ key, k, events: k, files: new Set(files), n });

describe('verdict cards', () => {
  it('groups the codes that step up at 2.1.40 into one strong card, over each code’s own opportunities', async () => {
    const db = await indexed('regressed', 'from-2.1.40');
    const r = getRegressions(db);
    const cmp = getComparison(db, '2.1.36', '2.1.37', {});
    db.close();
    const version = r.rows.filter((c) => c.dimension === 'version' && c.strength !== 'insufficient');
    expect(version).toHaveLength(1);
    expect(version[0]).toMatchObject({ last_good: '2.1.39', first_bad: '2.1.40', strength: 'strong', strength_text: 'strong evidence' });
    const codes = version[0]!.codes.map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['missing_tool_use_block', 'malformed_retry_injected', 'empty_tool_input_with_error_result']));
    const retry = version[0]!.codes.find((c) => c.code === 'malformed_retry_injected')!;
    expect(retry.opportunity).toBe('assistant_messages');
    expect(retry.after.sessions).toBeGreaterThan(0);
    expect(retry.after.sessions).toBeLessThanOrEqual(retry.after.events);
    expect(retry.rate_ratio!.ratio).toBeGreaterThan(1);
    expect(r.no_claim.version).toBeNull();
    // Zero against zero: no ratio, no p-value.
    const zero = cmp.rows.find((c) => c.code === 'missing_tool_use_block')!;
    expect(zero).toMatchObject({ rate_ratio: null, p_value: null, no_findings: true });
  });

  it('names no change where every version fails alike, and says so in one line', async () => {
    const db = await indexed('steady', 'none');
    const r = getRegressions(db);
    db.close();
    expect(r.rows.filter((c) => c.dimension === 'version' && c.strength !== 'insufficient')).toEqual([]);
    expect(r.no_claim.version).toMatch(/^No regression/);
  });

  it('caps one session: fifty findings from one looping session make no regression', () => {
    const many = [cell('1.0.0', 0, 1000), cell('1.0.1', 0, 1000), cell('1.0.2', SESSION_CAP, 1000, [7])];
    many[2]!.events = 50;
    const { cards } = buildCards('version', new Map([['missing_tool_use_block', many]]), 3000);
    expect(cards.filter((c) => c.strength !== 'insufficient')).toEqual([]);
    // Without the cap the same counts would be named.
    const uncapped = [cell('1.0.0', 0, 1000), cell('1.0.1', 0, 1000), cell('1.0.2', 50, 1000, [7])];
    const named = buildCards('version', new Map([['missing_tool_use_block', uncapped]]), 3000).cards;
    expect(named[0]).toMatchObject({ first_bad: '1.0.2', strength: 'suggestive' });
  });

  it('says how many more turns a thin version with findings needs', () => {
    const cells = [cell('1.0.0', 0, 5000), cell('1.0.1', 2, 40, [1, 2])];
    const { cards, noClaim } = buildCards('version', new Map([['orphan_tool_use', cells]]), 5040);
    expect(cards).toHaveLength(1);
    expect(cards[0]!.strength_text).toBe(`not enough data: needs ~${MIN_OPPORTUNITIES - 40} more tool-use turns on 1.0.1`);
    expect(noClaim).toMatch(/No regression/);
  });

  it('says "no findings" when there are none', () => {
    const { cards, noClaim } = buildCards('version', new Map([['orphan_tool_use', [cell('1.0.0', 0, 300), cell('1.0.1', 0, 300)]]]), 600);
    expect(cards).toEqual([]);
    expect(noClaim).toBe('No regression: no findings in 600 tool-use turns across 2 versions.');
  });
});
