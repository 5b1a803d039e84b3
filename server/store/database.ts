import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { projectRoot } from '../project-root';

export type Db = Database.Database;

const migrationsDir = join(projectRoot, 'server/store/migrations');

/**
 * Opens (creating if needed) an index database: WAL so the dashboard reads while an index
 * runs, foreign keys on, and every pending numbered migration applied in one transaction.
 */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const pending = readdirSync(migrationsDir)
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 3)), sql: readFileSync(join(migrationsDir, name), 'utf8') }))
    .filter((m) => m.version > current);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
  })();
}

/**
 * Opens an existing index for reading only, for the commands that only read (`report`, `export`,
 * `verify`): never creates the file (SqliteError SQLITE_CANTOPEN when it is missing). An index of an
 * older schema is upgraded first, through openDatabase, since the queries need the current one.
 */
export function openDatabaseReadOnly(path: string): Db {
  const open = () => new Database(path, { readonly: true, fileMustExist: true });
  let db = open();
  const latest = Math.max(0, ...readdirSync(migrationsDir).map((name) => (/^\d{3}_[a-z0-9_]+\.sql$/.test(name) ? Number(name.slice(0, 3)) : 0)));
  if ((db.pragma('user_version', { simple: true }) as number) < latest) {
    db.close();
    openDatabase(path).close();
    db = open();
  }
  db.pragma('busy_timeout = 5000');
  return db;
}
