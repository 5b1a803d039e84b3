import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DETECTORS } from '../../server/detect/registry';
import { FINDING_CODES } from '../../shared/finding-codes';

const root = join(import.meta.dirname, '../..');
const dashed = (code: string) => code.replaceAll('_', '-');
// A capture detector lives in server/detect/capture/<code>-capture.ts, a transcript detector in server/detect/<code>.ts.
const sourceFile = (d: (typeof DETECTORS)[number]) =>
  join(root, 'server/detect', d.source === 'capture' ? `capture/${dashed(d.code)}-capture.ts` : `${dashed(d.code)}.ts`);

describe('the registry: adding a detector is a source file, a fixture folder, a test and a registry line', () => {
  it('holds one detector per code and kind of file, and every finding code has one', () => {
    const keys = DETECTORS.map((d) => `${d.code}/${d.source}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...new Set(DETECTORS.map((d) => d.code))].sort()).toEqual([...FINDING_CODES].sort());
  });

  it('lists detectors in the order of FINDING_CODES', () => {
    const order = DETECTORS.map((d) => FINDING_CODES.indexOf(d.code));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  for (const d of DETECTORS) {
    it(`${d.code} (${d.source}): its own source file, fixture folder and test`, () => {
      const source = readFileSync(sourceFile(d), 'utf8');
      expect(source).toContain(`code: '${d.code}'`);
      expect(source).toContain(`source: '${d.source}'`);
      expect(existsSync(join(root, 'fixtures/detectors', d.code, 'expected.json'))).toBe(true);
      const test = join(root, 'test/detect', `${dashed(d.code)}.test.ts`);
      expect(readFileSync(test, 'utf8')).toContain(`detectorFixtureTests('${d.code}')`);
    });
  }

  for (const d of DETECTORS.filter((x) => x.collect !== undefined)) {
    it(`${d.code} (${d.source}): a fresh collector, with facts of its own, per file`, () => {
      const a = d.collect!();
      const b = d.collect!();
      expect(a).not.toBe(b);
      expect(a.facts()).not.toBe(b.facts());
    });
  }
});
