import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeRate, ModelRateRow, VersionModelRow, VersionRateRow } from '../../shared/api-schemas';
import { FINDING_OPPORTUNITY, NOT_MEASURABLE_REASON, NOT_MEASURABLE_TEXT } from '../../shared/denominators';
import { FINDING_CODES } from '../../shared/finding-codes';
import { expandRates } from '../../shared/sparse-rates';
import { type TestApp, testApp } from '../support/api-app';
import { ERA_TRUTH, writeEraCorpus } from '../support/era-corpus';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-eras-'));
let t: TestApp;

beforeAll(async () => {
  writeEraCorpus(join(tmp, 'projects'));
  t = await testApp([join(tmp, 'projects')]);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

const code = (row: { codes: CodeRate[] }, c: string) => row.codes.find((x) => x.code === c)!;
const versions = Object.keys(ERA_TRUTH) as Array<keyof typeof ERA_TRUTH>;
const total = (k: keyof (typeof ERA_TRUTH)['2.1.20']) => versions.reduce((n, v) => n + ERA_TRUTH[v][k], 0);

describe('denominators per stop-reason era', () => {
  it('/api/versions: exact messages, tool-use turns, recorded stop reasons, captures, synthetic rows and coverage per version', async () => {
    const rows = (await t.get('/api/versions')).json.rows as VersionRateRow[];
    expect(rows.map((r) => r.version)).toEqual(versions);
    for (const r of rows) {
      const want = ERA_TRUTH[r.version as keyof typeof ERA_TRUTH];
      expect(r).toMatchObject({
        assistant_messages: want.assistant_messages,
        tool_use_turns: want.tool_use_turns,
        stop_known_messages: want.stop_known_messages,
        capture_messages: want.capture_messages,
        synthetic_messages: want.synthetic_messages,
        stop_reason_coverage: want.stop_known_messages / want.assistant_messages,
      });
    }
  });

  it('each code over its own opportunities; null rate and a reason where there are none, never 0‰', async () => {
    // The answer is sparse (a code with no finding in a row is left out): every code's figures as the page rebuilds them.
    const rows = expandRates((await t.get('/api/versions')).json) as VersionRateRow[];
    for (const r of rows) {
      const want = ERA_TRUTH[r.version as keyof typeof ERA_TRUTH];
      for (const c of FINDING_CODES) {
        const rate = code(r, c);
        const opportunity = FINDING_OPPORTUNITY[c];
        expect(rate.opportunity).toBe(opportunity);
        expect(rate.opportunities).toBe(want[opportunity]);
        if (want[opportunity] === 0) {
          expect(rate.per_1000_opportunities).toBeNull();
          expect(rate.not_measurable).toBe(NOT_MEASURABLE_REASON[opportunity]);
        } else {
          expect(rate.not_measurable).toBeNull();
          expect(rate.per_1000_opportunities!.rate).toBeCloseTo((1000 * rate.count) / want[opportunity], 3);
        }
      }
    }
    const legacy = rows.find((r) => r.version === '2.1.20')!;
    expect(code(legacy, 'missing_tool_use_block')).toMatchObject({
      opportunities: 0,
      per_1000_opportunities: null,
      not_measurable: 'stop_reason_not_recorded',
    });
    expect(code(legacy, 'orphan_tool_use')).toMatchObject({ opportunities: 2, not_measurable: null });
    expect(code(legacy, 'zero_delta_tool_use')).toMatchObject({ opportunities: 0, not_measurable: 'no_captures' });
    const modern = rows.find((r) => r.version === '2.1.100')!;
    expect(code(modern, 'missing_tool_use_block')).toMatchObject({ count: 1, opportunities: 3, not_measurable: null });
    expect(code(modern, 'missing_tool_use_block').per_1000_opportunities!.rate).toBeCloseTo(333.333, 2);
    expect(code(rows.find((r) => r.version === '2.1.215')!, 'zero_delta_tool_use')).toMatchObject({ count: 1, opportunities: 1, not_measurable: null });
  });

  it('/api/summary adds them up; synthetic rows are their own count', async () => {
    const s = (await t.get('/api/summary')).json;
    expect(s).toMatchObject({
      assistant_messages: total('assistant_messages'),
      tool_use_turns: total('tool_use_turns'),
      stop_known_messages: total('stop_known_messages'),
      capture_messages: total('capture_messages'),
      synthetic_messages: 1,
      stop_reason_coverage: total('stop_known_messages') / total('assistant_messages'),
    });
    expect(code(s, 'missing_tool_use_block')).toMatchObject({ count: 1, opportunities: total('stop_known_messages') });
  });

  it('the synthetic row is under no model: an unknown-model row with no model messages and one synthetic row', async () => {
    const models = (await t.get('/api/models?sidechain=all')).json.rows as ModelRateRow[];
    expect(models.map((r) => [r.model, r.assistant_messages, r.synthetic_messages])).toEqual([
      ['claude-opus-4-8', total('assistant_messages'), 0],
      [null, 0, 1],
    ]);
    expect(code(models[1]!, 'text_leaked_tool_call')).toMatchObject({ per_1000_opportunities: null, not_measurable: 'no_messages' });
  });

  it('/api/version-models carries the same denominators', async () => {
    const rows = (await t.get('/api/version-models')).json.rows as VersionModelRow[];
    const opus = rows.filter((r) => r.model === 'claude-opus-4-8');
    expect(opus.map((r) => [r.version, r.tool_use_turns, r.stop_known_messages, r.capture_messages])).toEqual(
      versions.map((v) => [v, ERA_TRUTH[v].tool_use_turns, ERA_TRUTH[v].stop_known_messages, ERA_TRUTH[v].capture_messages]),
    );
  });

  it('/api/compare: a side with no opportunities is not measurable, with no ratio and no p-value', async () => {
    const { json } = await t.get('/api/compare?a=2.1.20&b=2.1.100');
    expect(json.a).toMatchObject({ tool_use_turns: 2, stop_known_messages: 0, synthetic_messages: 1 });
    const missing = json.rows.find((c: { code: string }) => c.code === 'missing_tool_use_block');
    expect(missing.a).toMatchObject({
      count: 0,
      opportunity: 'stop_known_messages',
      opportunities: 0,
      per_1000_opportunities: null,
      not_measurable: 'stop_reason_not_recorded',
    });
    expect(missing.b).toMatchObject({ count: 1, opportunities: 3, not_measurable: null });
    expect(missing.rate_ratio).toBeNull();
    expect(missing.p_value).toBeNull();
    const orphan = json.rows.find((c: { code: string }) => c.code === 'orphan_tool_use');
    expect(orphan.a).toMatchObject({ opportunities: 2, not_measurable: null });
    // Measurable on both sides, but no finding on either: no ratio and no p-value, said so.
    expect(orphan).toMatchObject({ no_findings: true, rate_ratio: null, p_value: null });
  });

  it('/api/regressions: a code with no opportunities anywhere is not measurable, and says why', async () => {
    const { json } = await t.get('/api/regressions?version=2.1.20');
    const v = json.verdicts.find(
      (x: { code: string; model: string | null; dimension: string }) => x.code === 'missing_tool_use_block' && x.model === null && x.dimension === 'version',
    );
    expect(v).toMatchObject({
      status: 'not_measurable',
      opportunity: 'stop_known_messages',
      not_measurable: 'stop_reason_not_recorded',
      not_measurable_keys: ['2.1.20'],
    });
    expect(v.summary).toContain(NOT_MEASURABLE_TEXT.stop_reason_not_recorded);
    expect(json.min_opportunities).toBe(json.min_tool_use_turns);
  });

  it('the evidence report says "not measurable (…)" where a version has no opportunities, and gives coverage', async () => {
    const json = (await t.get('/api/export?format=json')).json;
    expect(json.scanned).toMatchObject({ stop_known_messages: total('stop_known_messages'), synthetic_messages: 1, capture_messages: 1 });
    const legacy = json.by_version.find((r: { key: string }) => r.key === '2.1.20');
    expect(legacy).toMatchObject({ stop_known_messages: 0, synthetic_messages: 1, stop_reason_coverage: 0 });
    expect(code(legacy, 'missing_tool_use_block')).toMatchObject({ per_1000_opportunities: null, not_measurable: 'stop_reason_not_recorded' });
    const md = (await t.get('/api/export?format=md')).body;
    const line = md.split('\n').find((l: string) => l.startsWith('| 2.1.20 |'))!;
    expect(line).toContain('not measurable (stop reason not recorded)');
    expect(line).toContain('| 0 (0%) |'); // stop reasons recorded: none
    expect(md.split('\n').find((l: string) => l.startsWith('| 2.1.70 |'))).toContain('| 2 (66.7%) |');
  });
});
