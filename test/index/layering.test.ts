import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledWorkerBeside } from '../../server/index/analysis-pool';

const root = join(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-layering-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * Biome's verdict on a would-be file at `path`, under the project's own biome.json, in a scratch copy of the
 * layout (nothing is written into the checkout).
 */
function lint(path: string, source: string): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tmp, 'lint-'));
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
  delete config.$schema;
  config.vcs = { enabled: false };
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  writeFileSync(join(dir, path), source);
  const run = spawnSync(process.execPath, [join(root, 'node_modules/@biomejs/biome/bin/biome'), 'lint', path], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('the import direction (biome.json): index imports only scan, detect and shared', () => {
  it('refuses server/index importing storage, and allows it scan, detect and its own interface', () => {
    const store = lint('server/index/probe.ts', "import type { Db } from '../store/database';\nexport type X = Db;\n");
    expect(store.status).not.toBe(0);
    expect(store.out).toContain('index imports only from scan, detect and shared/');
    const earlier = lint(
      'server/index/probe.ts',
      "import type { FileAnalysis } from '../detect/analyse-file';\nimport type { IndexStore } from './index-store';\nexport type X = [FileAnalysis, IndexStore];\n",
    );
    expect(earlier.out).not.toContain('imports only');
    expect(earlier.status).toBe(0);
  }, 30_000);

  it('lets store import index (an earlier stage), and live (composition) import index and store but not routes', () => {
    expect(lint('server/store/probe.ts', "import type { IndexStore } from '../index/index-store';\nexport type X = IndexStore;\n").status).toBe(0);
    expect(
      lint(
        'server/live/probe.ts',
        "import type { IndexStore } from '../index/index-store';\nimport type { Db } from '../store/database';\nexport type X = [IndexStore, Db];\n",
      ).status,
    ).toBe(0);
    const routes = lint('server/live/probe.ts', "import type { App } from '../routes/types';\nexport type X = App;\n");
    expect(routes.status).not.toBe(0);
    expect(routes.out).toContain('live is composition');
  }, 30_000);
});

describe('the worker pool finds the bundled worker through import.meta.url', () => {
  it('uses analyse-worker.mjs beside the module when there is one (the CLI bundle), and bundles from source otherwise', () => {
    const chunk = pathToFileURL(join(tmp, 'chunk-ABC.mjs')).href;
    expect(bundledWorkerBeside(chunk)).toBeNull();
    writeFileSync(join(tmp, 'analyse-worker.mjs'), 'export default () => [];\n');
    expect(bundledWorkerBeside(chunk)).toBe(join(tmp, 'analyse-worker.mjs'));
    // From source, nothing is beside server/index/analysis-pool.ts.
    expect(bundledWorkerBeside(pathToFileURL(join(root, 'server/index/analysis-pool.ts')).href)).toBeNull();
  });
});
