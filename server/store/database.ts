import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { projectRoot } from '../build/project-root';
import { DatabaseError, describeDatabaseError, isSqliteCode } from './database-errors';
import { registerPathHash } from './path-hash';

export { DatabaseError, describeDatabaseError };

export type Db = Database.Database;

const migrationsDir = join(projectRoot, 'server/store/migrations');

// better-sqlite3 reads this when its native addon loads (at the first `new Database`, never
// earlier): it lets a `file:` URI carry `immutable=1`, the one way to read a WAL database in a
// folder the reader cannot write (openDatabaseReadOnly). Our own paths are always absolute
// (resolved before opening), so no path of ours is mistaken for a URI.
process.env.SQLITE_USE_URI = '1';

/**
 * How long a connection waits for another one's write lock before SQLITE_BUSY. Write
 * transactions are short (one file each), so this only covers a rebuild of the denominators
 * by another process on a large index.
 */
export const BUSY_TIMEOUT_MS = 30_000;

interface Migration {
  version: number;
  sql: string;
}

let migrationList: Migration[] | null = null;

/** The numbered migrations, read once per process (every open asked twice: to migrate, and to refuse a newer schema). */
function migrations(): Migration[] {
  migrationList ??= readdirSync(migrationsDir)
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 3)), sql: readFileSync(join(migrationsDir, name), 'utf8') }));
  return migrationList;
}

/**
 * `schema.sql`: what the migrations make of an empty database (its tables, indexes and the rows they seed), written
 * by `npm run schema` (schemaSnapshot). A new database is made from it in one step, then any later migration runs:
 * the 19 migrations each re-read the schema as they change it (015 drops and renames columns), 19 ms of a new index's
 * start against 2 ms. test/store/schema-snapshot.test.ts holds it to the migrations' result.
 */
const SNAPSHOT_PATH = join(migrationsDir, '../schema.sql');
const SNAPSHOT_VERSION = /^-- version: (\d+)$/m;

function snapshot(): Migration | null {
  let sql: string;
  try {
    sql = readFileSync(SNAPSHOT_PATH, 'utf8');
  } catch {
    return null;
  }
  const version = SNAPSHOT_VERSION.exec(sql);
  return version ? { version: Number(version[1]), sql } : null;
}

const TYPE_ORDER = "CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END";

/**
 * A migrated database's schema as SQL that makes it again: its CREATE statements as SQLite keeps them (tables, then
 * indexes, views, triggers, each in the order made) and an INSERT per row of every table holding any (the
 * vocabularies migrations seed), in the order of their columns' values. Applied to an empty database it gives the same snapshot back (the test checks).
 */
export function schemaSnapshot(db: Db): string {
  const version = db.pragma('user_version', { simple: true }) as number;
  const out = [
    `-- What migrations 001-${String(version).padStart(3, '0')} make of an empty database: written by \`npm run schema\`, never by hand.`,
    `-- version: ${version}`,
  ];
  const objects = db
    .prepare<[], { type: string; name: string; sql: string }>(
      `SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY ${TYPE_ORDER}, rowid`,
    )
    .all();
  for (const o of objects) out.push(`${o.sql};`);
  for (const { name } of objects.filter((o) => o.type === 'table')) {
    const columns = db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${name}')`)
      .all()
      .map((c) => `"${c.name}"`);
    const values = db
      .prepare<[], { row: string }>(`SELECT ${columns.map((c) => `quote(${c})`).join(" || ', ' || ")} AS row FROM "${name}" ORDER BY ${columns.join(', ')}`)
      .all();
    for (const { row } of values) out.push(`INSERT INTO "${name}" (${columns.join(', ')}) VALUES (${row});`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * Every connection this process opens on an index: with `path_hash()` registered, which the files
 * upsert and migration 016 call (the shared statements are prepared on read-only connections too,
 * where it never runs). The worker threads' own connections only checkpoint and rebuild denominators.
 */
function connect(filename: string, options?: Database.Options): Db {
  const db = new Database(filename, options);
  registerPathHash(db);
  return db;
}

/** The schema version this build writes (its highest migration). */
export function latestSchemaVersion(): number {
  return migrations().reduce((v, m) => Math.max(v, m.version), 0);
}

/**
 * Opens (creating if needed) an index database: WAL so the dashboard reads while an index
 * runs, foreign keys on, a busy timeout (set first, so even switching to WAL waits for
 * another process instead of failing), and every pending numbered migration applied in one
 * BEGIN IMMEDIATE transaction that re-reads the version inside it: two processes opening a
 * fresh database at once migrate it once. A database written by a newer build is refused.
 */
export function openDatabase(given: string): Db {
  const path = given === ':memory:' ? given : resolve(given);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  try {
    const db = connect(path);
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('foreign_keys = ON');
      checkNotFuture(db);
      switchToWal(db);
      db.pragma('synchronous = NORMAL');
      migrate(db);
      ensureSalt(db);
      if (path !== ':memory:') checkpointOffThread(db, path);
    } catch (error) {
      db.close();
      throw error;
    }
    return db;
  } catch (error) {
    throw describeDatabaseError(error) ?? error;
  }
}

/**
 * A new database starts in rollback-journal mode, and two processes opening it at once may both
 * try to switch it to WAL: each holds a read lock it wants to promote, so SQLite answers one of
 * them SQLITE_BUSY at once, without waiting, to avoid a deadlock (sqlite3_busy_handler's docs).
 * Seen in CI as a CLI `index` failing after 249 ms beside another. The loser waits a moment and
 * tries again (the winner has usually switched it by then), within the same busy timeout.
 */
function switchToWal(db: Db): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isSqliteCode(error, 'SQLITE_BUSY') || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + Math.random() * 20);
    }
  }
}

/** WAL bytes after which a checkpoint is started (SQLite's own default is 1,000 pages, ~4 MB). */
const CHECKPOINT_WAL_BYTES = 4 * 1024 * 1024;
const CHECKPOINT_EVERY_MS = 1000;
const CHECKPOINT_WORKER = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
try {
  db.pragma('busy_timeout = 1000');
  db.pragma('wal_checkpoint(PASSIVE)');
} finally {
  db.close();
}
`;

/**
 * SQLite's automatic checkpoint runs inside the commit that crosses ~4 MB of WAL, on the
 * writer's thread: copying those pages into the database and syncing it held the event loop
 * 30–60 ms each time (20 of the write transactions over 30 ms while indexing 100,000 files; 2
 * with it off). So a writable connection turns it off and, once a second, when it has written
 * since the last look and the WAL is over ~4 MB, starts a PASSIVE checkpoint on a connection
 * of its own in a worker thread (it copies what no reader still needs and never blocks the
 * writer; the next one continues). Closing the connection checkpoints the rest, as before.
 */
function checkpointOffThread(db: Db, path: string): void {
  db.pragma('wal_autocheckpoint = 0');
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  let seen = -1;
  let running = false;
  const timer = setInterval(() => {
    if (running || !db.open) return;
    const now = changes.get()!;
    if (now === seen) return;
    let wal: number;
    try {
      wal = statSync(`${path}-wal`).size;
    } catch {
      return;
    }
    if (wal < CHECKPOINT_WAL_BYTES) return;
    seen = now;
    running = true;
    const worker = new Worker(CHECKPOINT_WORKER, { eval: true, workerData: { driver, path }, execArgv: [] });
    worker.unref();
    // A failed checkpoint (busy, disk full) leaves the WAL as it is: the next look tries again, and close does it.
    worker.on('error', () => {});
    worker.once('exit', () => {
      running = false;
    });
  }, CHECKPOINT_EVERY_MS);
  timer.unref();
  const close = db.close.bind(db);
  db.close = () => {
    clearInterval(timer);
    return close();
  };
}

function checkNotFuture(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = latestSchemaVersion();
  if (current > latest) {
    throw new DatabaseError(
      'future_schema',
      `this index database has schema version ${current}, newer than this build's ${latest}: update tool-call-forensics, or use another --db`,
    );
  }
}

/** schemaSnapshot of a new in-memory database made by the migrations alone. */
function migratedSnapshot(): string {
  const db = connect(':memory:');
  try {
    db.pragma('foreign_keys = ON');
    migrate(db, false);
    return schemaSnapshot(db);
  } finally {
    db.close();
  }
}

/**
 * What `npm run schema` writes to schema.sql: the migrations' snapshot, less the rows a migration seeds at random
 * (told apart by making it twice: the lines that differ), which RESEEDED makes again for each database.
 */
export function snapshotFromMigrations(): { sql: string; random: string[] } {
  const a = migratedSnapshot().split('\n');
  const b = new Set(migratedSnapshot().split('\n'));
  const random = a.filter((line) => !b.has(line));
  if (random.some((line) => !line.startsWith('INSERT '))) throw new Error('two new databases differ in more than their rows');
  return { sql: a.filter((line) => b.has(line)).join('\n'), random };
}

/** Migrations that seed a value at random (022: the index's own id), run again on a database made from schema.sql. */
const RESEEDED: readonly number[] = [22];

/** Applies the pending migrations; an empty database is made from schema.sql first (`fromSnapshot`, off only in its test). */
export function migrate(db: Db, fromSnapshot = true): void {
  const all = migrations();
  const latest = all.reduce((v, m) => Math.max(v, m.version), 0);
  if ((db.pragma('user_version', { simple: true }) as number) >= latest) return;
  // A migration that copies a table others reference (SQLite's 12-step change) says so on its first
  // line: foreign keys are off while it runs (PRAGMA foreign_keys cannot change inside the
  // transaction), else dropping the old table would cascade; they are checked before the commit.
  const before = db.pragma('user_version', { simple: true }) as number;
  const keysOff = all.some((m) => m.version > before && m.sql.startsWith('-- foreign_keys: off'));
  if (keysOff) db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      // Another process may have migrated between our read and our lock: read again, under the lock.
      let current = db.pragma('user_version', { simple: true }) as number;
      if (current > latest) checkNotFuture(db);
      const made = fromSnapshot ? snapshot() : null;
      if (current === 0 && made !== null && made.version <= latest && db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() === 0) {
        db.exec(made.sql);
        for (const m of all) if (RESEEDED.includes(m.version) && m.version <= made.version) db.exec(m.sql);
        db.pragma(`user_version = ${made.version}`);
        current = made.version;
      }
      for (const m of all.filter((m) => m.version > current)) {
        db.exec(m.sql);
        db.pragma(`user_version = ${m.version}`);
      }
      if (keysOff && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
        throw new Error('a migration left rows whose foreign keys point nowhere: nothing was changed');
      }
    }).immediate();
  } finally {
    if (keysOff) db.pragma('foreign_keys = ON');
  }
}

const SALT_KEY = 'pseudonym_salt';

/**
 * The export pseudonyms' salt is written when the database is made (or first opened
 * writable), so a read-only database or folder can still export. Older read-only databases
 * without one are left as they are (export then says why it cannot pseudonymize).
 */
function ensureSalt(db: Db): void {
  if (db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(SALT_KEY)) return;
  try {
    db.transaction(() => {
      db.prepare<[string, string]>('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(SALT_KEY, randomBytes(32).toString('hex'));
    }).immediate();
  } catch (error) {
    if (!isSqliteCode(error, 'SQLITE_READONLY')) throw error;
  }
}

/**
 * Opens an existing index for reading only, for the commands that only read (`report`, `export`,
 * `verify`): never creates the file (SqliteError SQLITE_CANTOPEN when it is missing). An index of an
 * older schema is upgraded first, through openDatabase, since the queries need the current one.
 *
 * A WAL database needs its `-shm` side file even to read. When the folder is read-only and no
 * side files exist (the state a database is left in after its last writer closed it: every change
 * merged into the main file), SQLite cannot create them, so the file is opened `immutable=1`:
 * no side files, no locks, exactly the merged content, which is all there is. When a `-wal` file
 * with content exists but cannot be used (no `-shm` and none can be made), its changes are not yet
 * merged and cannot be read without writing: refused (`read_only`), never shown stale.
 */
export function openDatabaseReadOnly(path: string, options: { upgrade?: boolean } = {}): Db {
  const abs = resolve(path);
  let db = openForReading(abs);
  const latest = latestSchemaVersion();
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > latest) {
    // Written by a newer build: refused, as openDatabase refuses it.
    db.close();
    throw new DatabaseError(
      'future_schema',
      `this index database has a schema newer than this build's ${latest}: update tool-call-forensics, or use another --db`,
    );
  }
  if (version < latest) {
    db.close();
    // `serve` on a read-only index (upgrade: false) never writes: an older index is refused.
    if (options.upgrade === false) throw needsUpgrade(version, latest);
    openDatabase(abs).close();
    db = openForReading(abs);
  }
  db.pragma('busy_timeout = 5000');
  return db;
}

function needsUpgrade(version: number, latest: number): DatabaseError {
  if (version === 0) return new DatabaseError('corrupt', 'the index database is not an index database (it has no schema version): use another --db');
  return new DatabaseError(
    'read_only',
    `this index database has schema version ${version}, older than this build's ${latest}, and upgrading it writes it: open it once with write access (\`report\`, or \`serve\` without --read-only), then serve it read-only`,
  );
}

/**
 * Opens an existing index this process could write, without ever writing it (`serve --read-only`):
 * a read-write handle with `query_only` on, so SQLite refuses every write (SQLITE_READONLY) while
 * it still sees what another process commits. Not a read-only handle: that one creates the -wal
 * and -shm files a WAL database needs and leaves them behind when it closes (it may not remove
 * them); this one removes them on close, as any last connection does, so nothing is left. Never
 * migrated (that writes): an older index is refused, as one from a newer build is.
 */
export function openDatabaseQueryOnly(path: string): Db {
  let db: Db | null = null;
  try {
    db = connect(resolve(path), { fileMustExist: true });
    db.pragma('query_only = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    checkNotFuture(db);
    const version = db.pragma('user_version', { simple: true }) as number;
    const latest = latestSchemaVersion();
    if (version < latest) throw needsUpgrade(version, latest);
    return db;
  } catch (error) {
    db?.close();
    throw describeDatabaseError(error) ?? error;
  }
}

function openForReading(abs: string): Db {
  let db: Db | null = null;
  try {
    db = connect(abs, { readonly: true, fileMustExist: true });
    db.pragma('user_version', { simple: true }); // the first read is where a missing -shm fails
    return db;
  } catch (error) {
    db?.close();
    if (!isSqliteCode(error, 'SQLITE_READONLY') && !isSqliteCode(error, 'SQLITE_CANTOPEN')) throw error;
    if (walBytes(abs) > 0) {
      throw new DatabaseError(
        'read_only',
        "the index database's folder is read-only and its write-ahead log (the -wal file next to it) holds changes not yet merged, which cannot be read without writing: run `report` once with write access to the folder (that merges them), or copy the database with its -wal file to a folder you can write",
      );
    }
    return connect(`${pathToFileURL(abs).href}?immutable=1`, { readonly: true, fileMustExist: true });
  }
}

function walBytes(abs: string): number {
  try {
    return statSync(`${abs}-wal`).size;
  } catch {
    return 0;
  }
}
