import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import type { FindingCode } from '../../shared/finding-codes';

export const fixturesRoot = join(import.meta.dirname, '../../fixtures');

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonlFiles(path);
    return name.endsWith('.jsonl') || name.endsWith('.sse') || name.endsWith('.ndjson') ? [path] : [];
  });
}

/**
 * Runs one detector's fixture folder: every .jsonl file must be listed in expected.json
 * with the exact source lines of each finding of that code (an empty list for negatives).
 */
export function detectorFixtureTests(code: FindingCode): void {
  const dir = join(fixturesRoot, 'detectors', code);
  const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, number[][]>;
  const files = jsonlFiles(dir).map((p) => relative(dir, p));

  it('lists every fixture file in expected.json, positives and negatives both present', () => {
    expect(Object.keys(expected).sort()).toEqual(files.sort());
    expect(Object.values(expected).some((v) => v.length > 0)).toBe(true);
    expect(Object.values(expected).some((v) => v.length === 0)).toBe(true);
  });

  for (const file of files) {
    it(`${file}: ${expected[file]?.length ? 'finds exactly the expected lines' : 'finds nothing'}`, () => {
      const analysis = analyseFile(join(dir, file));
      if (analysis.status !== 'ok') throw new Error(`fixture did not scan: ${JSON.stringify(analysis)}`);
      const got = analysis.findings.filter((f) => f.code === code).map((f) => f.sourceLines);
      expect(got).toEqual(expected[file]);
    });
  }
}
