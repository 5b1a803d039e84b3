import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesRoot } from '../support/detector-fixtures';

const GENERATORS = [
  'make-detector-fixtures.mjs',
  'make-taxonomy-fixtures.mjs',
  'make-capture-fixtures.mjs',
  'make-real-shape-fixtures.mjs',
  'make-agent-fixtures.mjs',
];
const FOLDERS = ['detectors', 'errors', 'agents', 'agents-native', 'agents-entire'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const tmp = mkdtempSync(join(tmpdir(), 'tcf-gen-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('fixture generators', () => {
  it('rebuild every committed detector and error fixture from nothing: the same bytes, the same expected.json', () => {
    // Run from an empty folder: each generator writes under ./fixtures, as it does in the checkout.
    for (const g of GENERATORS) execFileSync(process.execPath, [join(fixturesRoot, g)], { cwd: tmp, stdio: 'pipe' });
    const list = (root: string) => FOLDERS.flatMap((f) => files(join(root, f)).map((p) => relative(root, p))).sort();
    const committed = list(fixturesRoot);
    expect(list(join(tmp, 'fixtures'))).toEqual(committed);
    for (const file of committed) {
      const made = readFileSync(join(tmp, 'fixtures', file));
      const kept = readFileSync(join(fixturesRoot, file));
      // expected.json is laid out by `npm run format` after a run: compare its content.
      if (file.endsWith('.json')) expect(JSON.parse(made.toString('utf8')), file).toEqual(JSON.parse(kept.toString('utf8')));
      else expect(made.equals(kept), file).toBe(true);
    }
  });
});
