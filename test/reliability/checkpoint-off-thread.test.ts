import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/store/database';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-checkpoint-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WAL checkpoints', () => {
  it('a writable connection never checkpoints inside a commit; a worker thread moves the WAL into the database', async () => {
    const path = join(tmp, 'index.db');
    const db = openDatabase(path);
    try {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      db.exec('CREATE TABLE filler (b BLOB)');
      const insert = db.prepare('INSERT INTO filler VALUES (randomblob(65536))');
      db.transaction(() => {
        for (let i = 0; i < 100; i++) insert.run();
      })();
      // The commit left all 6.5 MB in the WAL: no checkpoint ran in it.
      const before = statSync(path).size;
      expect(before).toBeLessThan(1024 * 1024);
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(6_000_000);
      // The connection's own timer starts a checkpoint on another thread (a functional wait, not a timing).
      for (let i = 0; i < 150 && statSync(path).size < 6_000_000; i++) await sleep(100);
      expect(statSync(path).size).toBeGreaterThan(6_000_000);
      expect(db.prepare('SELECT count(*) FROM filler').pluck().get()).toBe(100);
    } finally {
      db.close();
    }
  });

  it('a database in memory keeps SQLite default', () => {
    const db = openDatabase(':memory:');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
  });
});
