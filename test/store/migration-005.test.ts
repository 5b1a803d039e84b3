import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { projectRoot } from '../../server/build/project-root';
import { fileFingerprint } from '../../server/index/file-fingerprint';
import { openDatabase } from '../../server/store/database';
import { cellTotals } from '../support/db-dump';
import { ERA_TRUTH, writeEraCorpus } from '../support/era-corpus';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-mig005-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A database as migrations 001–004 left it, holding one file indexed under the old tool-use-turn rule. */
function databaseAtVersion4(path: string, corpus: string, file: string): void {
  const db = new Database(path);
  const dir = join(projectRoot, 'server/store/migrations');
  for (const name of readdirSync(dir).sort()) {
    if (Number(name.slice(0, 3)) > 4) continue;
    db.exec(readFileSync(join(dir, name), 'utf8'));
  }
  db.pragma('user_version = 4');
  const rel = `-home-dev-era/${file}`;
  const full = join(corpus, rel);
  const { size, mtimeMs } = statSync(full);
  db.prepare("INSERT INTO roots (id, path, label, added_at, last_scan_at) VALUES (1, ?, 'projects', 'then', 'then')").run(corpus);
  db.prepare(
    `INSERT INTO files (id, root_id, rel_path, size, mtime_ms, fingerprint, status, assistant_messages, indexed_at)
     VALUES (1, 1, ?, ?, ?, ?, 'ok', 3, 'then')`,
  ).run(rel, size, mtimeMs, fileFingerprint(full, size));
  db.prepare("INSERT INTO cells (id, day, version, model, sidechain) VALUES (1, '2026-05-01', '2.1.20', 'claude-opus-4-8', 0)").run();
  // The old rule: no recorded stop reason, so no tool-use turn.
  for (const hash of [11, 12, 13]) db.prepare('INSERT INTO messages (file_id, message_hash, cell_id, tool_use_turn) VALUES (1, ?, 1, 0)').run(hash);
  db.prepare('INSERT INTO root_cells (root_id, cell_id, assistant_messages, tool_use_turns) VALUES (1, 1, 3, 0)').run();
  db.prepare("INSERT INTO meta (key, value) VALUES ('root_cells_dirty', '0')").run();
  db.close();
}

describe('migration 005 on an existing index', () => {
  it('drops the old denominators and makes the next index run read every file again, with the new rule', async () => {
    const corpus = join(tmp, 'projects');
    writeEraCorpus(corpus);
    const path = join(tmp, 'old.db');
    databaseAtVersion4(path, corpus, 'era-null.jsonl');

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(5);
    // A fingerprint no file can have ('reindex:005', or '' once migration 008 has cleared it too): read again next run.
    // (Migration 015 stores fingerprints as bytes; such a marker becomes none at all.)
    const fingerprints = db.prepare('SELECT lower(hex(fingerprint)) FROM files').pluck().all() as string[];
    expect(fingerprints.length).toBeGreaterThan(0);
    for (const f of fingerprints) expect(f).not.toMatch(/^[0-9a-f]{32}$/);
    expect(db.prepare('SELECT count(*) FROM root_cells').pluck().get()).toBe(0);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'root_cells_dirty'").pluck().get()).toBe('1');

    const summary = await indexDatabase(db, { analyser: 'inline' });
    // The seeded file is read again although its size and mtime did not change; the other three are new.
    expect(summary).toMatchObject({ filesChanged: 4, filesUnchanged: 0 });
    const legacy = cellTotals(db).find((c) => c.version === '2.1.20')!;
    expect(legacy).toMatchObject({ assistant_messages: 3, tool_use_turns: ERA_TRUTH['2.1.20'].tool_use_turns, stop_known_messages: 0 });
    db.close();
  });
});
