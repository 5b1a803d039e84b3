import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { MIX_CHANGE, mixDistance } from '../../server/query/card-confounds';
import type { VerdictCard } from '../../shared/api-schemas';
import { compareVersions } from '../../shared/version-order';
import { testApp } from '../support/api-app';

describe('verdict cards: a step that coincides with a change of model or effort', () => {
  it('measures how far two model × effort mixes are apart (total variation distance)', () => {
    const m = (o: Record<string, number>) => new Map(Object.entries(o));
    expect(mixDistance(m({ high: 100 }), m({ high: 7 }))).toBe(0);
    expect(mixDistance(m({ high: 100 }), m({ xhigh: 50 }))).toBe(1);
    expect(mixDistance(m({ high: 90, xhigh: 10 }), m({ high: 10, xhigh: 90 }))).toBeCloseTo(0.8);
    expect(mixDistance(m({ high: 60, xhigh: 40 }), m({ high: 40, xhigh: 60 }))).toBeLessThan(MIX_CHANGE);
    expect(mixDistance(m({}), m({ high: 1 }))).toBe(0);
  });
});

/** The demo corpus (a regression from 2.1.40), with every assistant row given an effort: `at(version)`. */
function demoWithEfforts(dir: string, at: (version: string) => string): string {
  generateDemoCorpus({ out: dir, seed: 21, sessions: 80, canary: 'COINCIDECANARY' });
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : n.endsWith('.jsonl') ? [join(d, n)] : []));
  for (const f of files(join(dir, 'projects'))) {
    const rows = readFileSync(f, 'utf8')
      .split('\n')
      .map((line) => {
        if (!line.includes('"type":"assistant"')) return line;
        const row = JSON.parse(line) as { version?: string };
        return JSON.stringify({ ...row, effort: at(row.version ?? '') });
      });
    writeFileSync(f, rows.join('\n'));
  }
  return join(dir, 'projects');
}

describe('verdict cards on an index', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-coincide-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const cardsOf = async (root: string) => {
    const t = await testApp([root]);
    try {
      return (await t.get('/api/regressions')).json.rows as VerdictCard[];
    } finally {
      await t.close();
    }
  };

  it('names an effort change that comes with the first bad version, and says nothing where effort did not change', async () => {
    // Where the demo's step is without any change of effort: no card says it coincides with one.
    const same = await cardsOf(demoWithEfforts(join(tmp, 'same'), () => 'high'));
    const plain = same.filter((c) => c.dimension === 'version' && c.strength !== 'insufficient');
    expect(plain.length).toBeGreaterThan(0);
    for (const c of plain) expect(c.coincides).toBeUndefined();
    // The same corpus with the effort raised from that card's first bad version on: the card names the effort change.
    const step = plain[0]!;
    const changed = await cardsOf(demoWithEfforts(join(tmp, 'changed'), (v) => (compareVersions(v, step.first_bad!) >= 0 ? 'xhigh' : 'high')));
    const card = changed.find((c) => c.id === step.id);
    expect(card?.coincides).toMatchObject({ model: false, effort: true });
    expect(card?.coincides?.text).toContain('effort high 100% → xhigh 100%');
  }, 120_000);
});
