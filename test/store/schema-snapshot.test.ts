import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/build/project-root';
import { latestSchemaVersion, openDatabase, schemaSnapshot, snapshotFromMigrations } from '../../server/store/database';

/**
 * A new index database is made from server/store/schema.sql in one step (then any later migration), not by running
 * every migration: it must be exactly what the migrations make, save the values a migration draws at random.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-schema-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const committed = readFileSync(join(projectRoot, 'server/store/schema.sql'), 'utf8');
/** Rows drawn at random per database: the index's id (migration 022) and the export pseudonyms' salt (made at open). */
const RANDOM_ROW = /^INSERT INTO "meta" \("key", "value"\) VALUES \('(index_id|pseudonym_salt)', '[0-9a-f]+'\);$/;
const withoutRandomRows = (sql: string) =>
  sql
    .split('\n')
    .filter((line) => !RANDOM_ROW.test(line))
    .join('\n');

describe('schema.sql', () => {
  it('is what the migrations make of an empty database (after a new migration: npm run schema)', () => {
    const { sql, random } = snapshotFromMigrations();
    expect(committed, 'server/store/schema.sql is out of date: run `npm run schema`').toBe(sql);
    expect(committed).toContain(`-- version: ${latestSchemaVersion()}\n`);
    // The one row drawn at random by a migration is left out, and made again for each database.
    expect(random).toHaveLength(1);
    expect(random[0]).toMatch(/^INSERT INTO "meta" \("key", "value"\) VALUES \('index_id', '[0-9a-f]{32}'\);$/);
  });

  it('makes a new database equal to the migrations', () => {
    const path = join(tmp, 'new.db');
    const db = openDatabase(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
      expect(withoutRandomRows(schemaSnapshot(db))).toBe(committed);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });

  it("draws each new database's own index id, as migration 022 does", () => {
    const ids = ['a.db', 'b.db'].map((name) => {
      const db = openDatabase(join(tmp, name));
      try {
        return db.prepare<[], string>("SELECT value FROM meta WHERE key = 'index_id'").pluck().get();
      } finally {
        db.close();
      }
    });
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});
