import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/build/project-root';
import { openDatabase } from '../../server/store/database';
import { sqliteIndexStore } from '../../server/store/index-store';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-mig011-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A database as migrations 001–010 left it, with two recorded runs in the old `scans` table. */
function databaseAtVersion10(path: string): void {
  const db = new Database(path);
  const dir = join(projectRoot, 'server/store/migrations');
  for (const name of readdirSync(dir).sort()) {
    if (Number(name.slice(0, 3)) > 10) continue;
    db.exec(readFileSync(join(dir, name), 'utf8'));
  }
  db.pragma('user_version = 10');
  db.prepare("INSERT INTO roots (id, path, label, added_at) VALUES (1, '/nowhere', 'projects', 'then')").run();
  db.prepare("INSERT INTO scans (id, root_id, started_at, status, files_seen) VALUES (1, 1, 'then', 'done', 7)").run();
  db.prepare("INSERT INTO scans (id, root_id, started_at, status) VALUES (2, NULL, 'later', 'running')").run();
  db.close();
}

describe('migration 011: the scans table is index_runs', () => {
  it('keeps every recorded run under the new name, and the next index run records itself there', () => {
    const path = join(tmp, 'v10.db');
    databaseAtVersion10(path);
    const db = openDatabase(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(11);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('scans', 'index_runs')").pluck().all();
      expect(tables).toEqual(['index_runs']);
      expect(db.prepare('SELECT id, root_id, status, files_seen FROM index_runs ORDER BY id').all()).toEqual([
        { id: 1, root_id: 1, status: 'done', files_seen: 7 },
        { id: 2, root_id: null, status: 'running', files_seen: 0 },
      ]);
      // A new run (holding the lock) marks the one left running by a dead process interrupted, and gets the next id.
      const id = sqliteIndexStore(db).startRun(1, 'now');
      expect(id).toBe(3);
      expect(db.prepare('SELECT status FROM index_runs ORDER BY id').pluck().all()).toEqual(['done', 'interrupted', 'running']);
    } finally {
      db.close();
    }
  });
});
