import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { dumpIndex } from '../support/db-dump';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-crash-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const root = join(import.meta.dirname, '../..');

function filesIndexed(path: string): number {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0; // not created or not migrated yet
  }
}

describe('crash recovery', () => {
  it('a database killed (SIGKILL) mid-index is consistent, and the next run completes it exactly', async () => {
    // Large enough (about 1 s of indexing on this VM) that the kill lands mid-run even on a loaded machine.
    generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 3, sessions: 1500, canary: 'CRASHCANARY' });
    const projects = join(tmp, 'corpus/projects');
    const dbPath = join(tmp, 'crashed.db');
    const child = spawn(process.execPath, [join(root, 'server/cli/launch.mjs'), 'index', projects, '--db', dbPath], { stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    let seen = 0;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && (seen = filesIndexed(dbPath)) < 20) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(seen).toBeGreaterThanOrEqual(20);

    const db = openDatabase(dbPath);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const partial = db.prepare('SELECT count(*) AS n FROM files').get() as { n: number };
      expect(partial.n).toBeLessThan(1500); // it really was cut short (there are more files than sessions)
      // Every file row agrees with the rows written with it: one transaction per file.
      const disagreeing = db
        .prepare(`SELECT count(*) AS n FROM files f
        WHERE f.assistant_messages <> (SELECT count(*) FROM messages m WHERE m.file_id = f.id)
           OR f.findings <> (SELECT count(*) FROM findings x WHERE x.file_id = f.id)`)
        .get() as { n: number };
      expect(disagreeing.n).toBe(0);

      await indexDatabase(db, { analyser: 'inline' });
      expect(db.prepare('SELECT status FROM index_runs ORDER BY id').all()).toEqual([{ status: 'interrupted' }, { status: 'done' }]);
      const clean = openDatabase(join(tmp, 'clean.db'));
      try {
        addRoot(clean, projects);
        await indexDatabase(clean, { analyser: 'inline' });
        expect(dumpIndex(db)).toEqual(dumpIndex(clean));
      } finally {
        clean.close();
      }
    } finally {
      db.close();
    }
  });
});
