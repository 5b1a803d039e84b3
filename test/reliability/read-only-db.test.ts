import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { runCli } from '../support/run-cli';
import { finishedIndex } from './support/finished-index';
import { readerBlocked } from './support/read-only-server';

// A read-only folder is only read-only to someone who is not root: root ignores the mode bits.
// So when the suite runs as root, the reading commands run as `nobody` (uid 65534) through
// spawn's uid option — the operating system itself refuses every write, nothing is simulated;
// otherwise they run as the current user, whom chmod stops.
const root = join(import.meta.dirname, '../..');
const asRoot = process.getuid?.() === 0;
const reader = asRoot ? { uid: 65534, gid: 65534 } : {};

const tmp = mkdtempSync(join(tmpdir(), 'tcf-rodb-'));
chmodSync(tmp, 0o755); // mkdtemp makes it 0700: the reader must be able to enter it
afterAll(() => {
  for (const dir of readdirSync(tmp)) chmodSync(join(tmp, dir), 0o755);
  rmSync(tmp, { recursive: true, force: true });
});

function runAsReader(args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'server/cli/launch.mjs'), ...args], {
    cwd: tmp,
    env: { ...process.env, HOME: tmp },
    encoding: 'utf8',
    ...reader,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let corpus: string;
let expected: string;
const makeIndex = (name: string) => finishedIndex(tmp, name, corpus);

beforeAll(() => {
  if (readerBlocked) return;
  const out = join(tmp, 'corpus');
  generateDemoCorpus({ out, seed: 5, sessions: 12, canary: 'RODBCANARY' });
  chmodSync(out, 0o755);
  corpus = join(out, 'projects');
  const writable = makeIndex('writable');
  const run = runCli(['report', '--db', writable.db]);
  expect(run.status).toBe(0);
  expected = run.stdout;
  expect(expected.length).toBeGreaterThan(100);
});

describe.skipIf(readerBlocked !== null)('a database the reader cannot write', () => {
  it('report, export and verify read a database in a read-only folder, and write nothing there', () => {
    const { dir, db } = makeIndex('ro-folder');
    chmodSync(dir, 0o555);
    // Without write access SQLite cannot make the -shm it needs for a WAL database: this is the
    // failure being fixed (before, `report` said the database was read-only and stopped).
    const report = runAsReader(['report', '--db', db]);
    expect(report.stderr).toBe('');
    expect(report.status).toBe(0);
    expect(report.stdout).toBe(expected);
    const keep = join(tmp, 'keep.json');
    const exported = runAsReader(['export', '--db', db, '--format', 'json', '--files', 'pseudonymize']);
    expect(exported.status).toBe(0);
    writeFileSync(keep, exported.stdout);
    const verified = runAsReader(['verify', keep, corpus, '--db', db]);
    expect(verified.stderr).toBe('');
    expect(verified.status).toBe(0);
    expect(readdirSync(dir)).toEqual(['index.db']);
  });

  it('a read-only database file in a writable folder reports and exports', () => {
    const { dir, db } = makeIndex('ro-file');
    chmodSync(dir, 0o777);
    chmodSync(db, 0o444);
    expect(runAsReader(['report', '--db', db]).stdout).toBe(expected);
    const exported = runAsReader(['export', '--db', db, '--files', 'pseudonymize']);
    expect(exported.stderr).not.toContain('read-only');
    expect(exported.status).toBe(0);
    expect(statSync(db).mode & 0o777).toBe(0o444);
  });

  it('unmerged changes in a -wal that cannot be read are refused with what to do, never shown stale', () => {
    const { db } = makeIndex('live');
    // A copy taken while a writer had changes in its log: the -wal comes along, the -shm does not.
    const writer = new Database(db);
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec("INSERT INTO meta (key, value) VALUES ('rodb_probe', '1')");
    expect(statSync(`${db}-wal`).size).toBeGreaterThan(0);
    const copy = join(tmp, 'copy');
    mkdirSync(copy);
    copyFileSync(db, join(copy, 'index.db'));
    copyFileSync(`${db}-wal`, join(copy, 'index.db-wal'));
    writer.close();
    chmodSync(copy, 0o555);
    const run = runAsReader(['report', '--db', join(copy, 'index.db')]);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('holds changes not yet merged');
    expect(run.stderr).not.toContain(tmp);
    expect(existsSync(join(copy, 'index.db-shm'))).toBe(false);
  });
});
