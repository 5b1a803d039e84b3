import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/build/project-root';
import { openDatabase } from '../../server/store/database';
import { registerPathHash } from '../../server/store/path-hash';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-mig019-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A database as migrations up to 018 left it (018 reads every transcript again itself), with one file of each kind an earlier build wrote. */
function databaseAtVersion18(path: string): void {
  const db = new Database(path);
  registerPathHash(db as never);
  const dir = join(projectRoot, 'server/store/migrations');
  for (const name of readdirSync(dir).sort()) {
    if (Number(name.slice(0, 3)) > 18) continue;
    db.exec(readFileSync(join(dir, name), 'utf8'));
  }
  db.pragma('user_version = 18');
  db.prepare("INSERT INTO roots (id, path, label, added_at) VALUES (1, '/nowhere', 'projects', 'then')").run();
  const file = db.prepare(
    "INSERT INTO files (id, root_id, path_hash, rel_path, size, mtime_ms, status, error_code, error_line, assistant_messages, fingerprint) VALUES (?, 1, ?, ?, 10, 1, ?, ?, ?, ?, X'0123')",
  );
  file.run(1, 1, 'read.jsonl', 'ok', null, null, 3);
  file.run(2, 2, 'codex-counted-clean.jsonl', 'ok', null, null, 0);
  file.run(3, 3, 'entire-compact.jsonl', 'failed', 'invalid_structure', 1, 0);
  file.run(4, 4, 'torn.jsonl', 'failed', 'malformed_json', 2, 0);
  db.close();
}

describe('migration 019: format hints and empty files', () => {
  it('adds the columns, and reads again the files an earlier build may have counted clean without recognising them', () => {
    const path = join(tmp, 'v16.db');
    databaseAtVersion18(path);
    const db = openDatabase(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(19);
      const rows = db.prepare('SELECT rel_path, hex(fingerprint) AS fp, format_hint, empty FROM files ORDER BY id').all();
      // read.jsonl: 019 keeps it, migration 023 (every file read gets its agent) reads it again.
      expect(rows).toEqual([
        { rel_path: 'read.jsonl', fp: '', format_hint: null, empty: 0 },
        { rel_path: 'codex-counted-clean.jsonl', fp: '', format_hint: null, empty: 0 },
        { rel_path: 'entire-compact.jsonl', fp: '', format_hint: null, empty: 0 },
        { rel_path: 'torn.jsonl', fp: '0123', format_hint: null, empty: 0 },
      ]);
      // A hint is a fixed name, never text from a file.
      expect(() => db.prepare("UPDATE files SET format_hint = 'Looks like: hello world' WHERE id = 1").run()).toThrow(/CHECK/);
      expect(() => db.prepare('UPDATE files SET empty = 2 WHERE id = 1').run()).toThrow(/CHECK/);
    } finally {
      db.close();
    }
  });
});
