import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { newestMtime } from '../../server/build/build-tools.mjs';
import { fixturesRoot } from '../support/detector-fixtures';

const root = join(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-launch-'));
// A cache of its own, so this test sees a first build; inside the checkout, where the bundle's
// imports of packages resolve to node_modules.
mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
const cacheDir = mkdtempSync(join(root, 'node_modules/.cache/tcf-launch-test-'));
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

const fromBundle = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [join(root, 'server/cli/launch.mjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, TCF_CLI_BUNDLE_DIR: cacheDir, ...env },
  });
const fromSource = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'server/cli/main.ts'), ...args], { encoding: 'utf8' });

describe('the CLI launcher (npm run cli, npm start)', () => {
  it('bundles the CLI and its index worker once per state of the sources, and prints what the sources print', () => {
    const fixture = join(fixturesRoot, 'detectors/missing_tool_use_block');
    const first = fromBundle(['scan', '--json', fixture]);
    expect(first.stderr).toBe('');
    const source = fromSource(['scan', '--json', fixture]);
    expect(first.status).toBe(source.status);
    expect(first.stdout).toBe(source.stdout);

    // The bundle is named after the newest source, so an edit under server/ or shared/ makes a new one.
    const stamp = Math.floor(Math.max(...['server', 'shared', 'package.json'].map((p) => newestMtime(join(root, p)))));
    expect(readdirSync(cacheDir)).toEqual([`cli-${stamp}`]);
    const bundle = join(cacheDir, `cli-${stamp}`);
    expect(readdirSync(bundle)).toEqual(expect.arrayContaining(['main.mjs', 'analyse-worker.mjs']));
    const builtAt = statSync(join(bundle, 'main.mjs')).mtimeMs;

    const again = fromBundle(['scan', '--json', fixture]);
    expect(again.stdout).toBe(source.stdout);
    expect(statSync(join(bundle, 'main.mjs')).mtimeMs).toBe(builtAt); // not rebuilt
    expect(readdirSync(cacheDir)).toEqual([`cli-${stamp}`]);
  });

  it('indexes with the bundled worker threads, finding what the source finds', () => {
    // Large enough for the index to use worker threads (the bundled analyse-worker.mjs).
    generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 5, sessions: 600, canary: 'LAUNCHCANARY' });
    const projects = join(tmp, 'corpus/projects');
    // --threads 2: a worker beside the CLI's own thread whatever the size (by default not below ~96 MB).
    // The pool must find the bundled worker beside its own chunk (import.meta.url), not bundle one from source:
    // with the temporary folder a plain file, building one (mkdtemp under it) would fail the run.
    const notAFolder = join(tmp, 'tmpdir-is-a-file');
    writeFileSync(notAFolder, '');
    const bundled = fromBundle(['index', projects, '--threads', '2', '--db', join(tmp, 'bundled.db')], { TMPDIR: notAFolder });
    expect(bundled.stderr).toBe('');
    const source = fromSource(['index', projects, '--threads', '2', '--db', join(tmp, 'source.db')]);
    expect(bundled.status).toBe(source.status);
    expect(bundled.stdout.replace(/ in [\d.]+ s/, '')).toBe(source.stdout.replace(/ in [\d.]+ s/, ''));
    const report = (db: string, run: typeof fromBundle) => JSON.parse(run(['report', '--json', '--db', db]).stdout) as unknown;
    expect(report(join(tmp, 'bundled.db'), fromBundle)).toEqual(report(join(tmp, 'source.db'), fromSource));
  }, 120_000);
});
