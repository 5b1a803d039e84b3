import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { pathHash } from '../../server/store/path-hash';
import { addRoot } from '../../server/store/roots';
import { tinyAssistantRow } from '../support/tiny-transcript';

// Migration 016: a file's row is found by (folder, first 64 bits of SHA-256 of its relative path),
// so the index does not hold every path a second time. The row keeps the path, and two paths whose
// hashes collide are refused, never merged into one row.
const tmp = mkdtempSync(join(tmpdir(), 'tcf-pathhash-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const row = (id: string) => `${tinyAssistantRow(id)}\n`;

describe('files keyed by path hash', () => {
  it('keys the unique index by (root_id, path_hash), not by the path, with foreign keys back on after migrating', () => {
    const db = openDatabase(join(tmp, 'schema.db'));
    try {
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      const unique = (db.pragma('index_list(files)') as Array<{ name: string; unique: number }>).filter((i) => i.unique === 1);
      expect(unique).toHaveLength(1);
      const columns = (db.pragma(`index_info(${unique[0]!.name})`) as Array<{ name: string }>).map((c) => c.name);
      expect(columns).toEqual(['root_id', 'path_hash']);
      // The SQL function and the JavaScript one agree (the migration uses the first, nothing else differs).
      const inSql = db.prepare<[string], { h: bigint }>('SELECT path_hash(?) AS h').safeIntegers(true).get('-home-user-src/abc.jsonl')!.h;
      expect(inSql).toBe(pathHash('-home-user-src/abc.jsonl'));
      expect(pathHash('a.jsonl')).not.toBe(pathHash('b.jsonl'));
    } finally {
      db.close();
    }
  });

  it('refuses a second path with the same hash instead of writing over the first file', async () => {
    const corpus = join(tmp, 'corpus');
    mkdirSync(corpus, { recursive: true });
    writeFileSync(join(corpus, 'a.jsonl'), row('msg_a'));
    const db = openDatabase(join(tmp, 'collide.db'));
    try {
      addRoot(db, corpus);
      await indexDatabase(db, { analyser: 'inline' });
      // Forge a collision: the row of a.jsonl now carries the hash b.jsonl will have.
      db.prepare('UPDATE files SET path_hash = ? WHERE rel_path = ?').run(pathHash('b.jsonl'), 'a.jsonl');
      writeFileSync(join(corpus, 'b.jsonl'), row('msg_b'));
      await expect(indexDatabase(db, { analyser: 'inline' })).rejects.toThrow(/share the first 64 bits/);
      const rows = db.prepare<[], { rel_path: string; assistant_messages: number }>('SELECT rel_path, assistant_messages FROM files').all();
      expect(rows).toEqual([{ rel_path: 'a.jsonl', assistant_messages: 1 }]);
    } finally {
      db.close();
    }
  });
});
