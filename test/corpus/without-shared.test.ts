import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-noshared-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every test file that declares a suite needing ../shared. */
function sharedSuiteFiles(dir = join(root, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sharedSuiteFiles(path);
    return /\.test\.tsx?$/.test(e.name) && /^describeWithShared\(/m.test(readFileSync(path, 'utf8')) ? [relative(root, path)] : [];
  });
}

/** Collects and runs those files as a user's clone would, with the shared root pointed at an empty folder. */
function runWithoutShared(extraEnv: NodeJS.ProcessEnv) {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(VITEST|TCF_|CI$|NODE_ENV$)/.test(k)) env[k] = v;
  const empty = mkdtempSync(join(tmp, 'shared-'));
  const out = join(tmp, `results-${Date.now()}.json`);
  const files = sharedSuiteFiles().filter((f) => f !== relative(root, import.meta.filename)); // never this file: it would spawn itself
  const r = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { cwd: root, env: { ...env, TCF_SHARED_DIR: empty, ...extraEnv }, encoding: 'utf8' },
  );
  const results = JSON.parse(readFileSync(out, 'utf8')) as {
    numFailedTests: number;
    numFailedTestSuites: number;
    numPassedTests: number;
    numPendingTests: number;
    testResults: Array<{ name: string; status: string }>;
  };
  return { ...r, files, results };
}

describe('a clone without ../shared', () => {
  it('skips every suite that needs it at collection, fails nothing, and prints one NOTICE naming them', () => {
    const run = runWithoutShared({});
    expect(run.files.length).toBeGreaterThanOrEqual(5);
    expect(run.status).toBe(0);
    expect(run.results.numFailedTests).toBe(0);
    expect(run.results.numFailedTestSuites).toBe(0);
    expect(run.results.numPassedTests).toBe(0); // nothing ran: every suite was skipped
    expect(run.results.numPendingTests).toBe(run.files.length);
    const output = run.stdout + run.stderr;
    const notices = output.split('\n').filter((l) => l.includes('NOTICE'));
    expect(notices).toHaveLength(1);
    for (const f of run.files) expect(notices[0]).toContain(f);
    expect(output).not.toMatch(/gen-corpus failed|does not exist|Error:/);
  });

  it('fails those files instead when TCF_REQUIRE_SHARED is set (CI)', () => {
    const run = runWithoutShared({ TCF_REQUIRE_SHARED: '1' });
    expect(run.status).not.toBe(0);
    expect(run.results.numFailedTestSuites).toBe(run.files.length);
    expect(run.stdout + run.stderr).toContain('TCF_REQUIRE_SHARED is set');
    expect(run.stdout + run.stderr).not.toContain('NOTICE');
  });
});
