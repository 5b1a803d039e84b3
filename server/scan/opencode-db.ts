import { createHash } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, mkdtempSync, read, readSync, rmSync, type Stats, write, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type Database from 'better-sqlite3';
import type { FormatHint } from '../../shared/format-hints';
import { OPENCODE_DB_SCHEMA, type OpenCodeSchemaHint, type OpenCodeTable } from '../../shared/opencode-schema';
import type { ScanErrorCode } from '../../shared/scan-errors';
import { type BuiltDocument, exportDocument } from './agents/read-document';
import { createPrivateFile, OpenError, openRegularFile } from './safe-open';

/**
 * The SQLite driver, loaded when a database is first opened: every thread that scans imports this module (for its
 * names and entry checks), and most never read a database, so loading the native driver up front cost each worker,
 * `scan` and the Stop hook ~35 ms of start-up.
 */
let driver: typeof Database | undefined;
/** Set by the test-time worker bundle (server/index/analysis-pool.ts), which sits in a temporary folder. */
declare const __SQLITE_DRIVER__: string | undefined;
function openSqlite(path: string, options: Database.Options): Database.Database {
  driver ??= createRequire(import.meta.url)(typeof __SQLITE_DRIVER__ === 'string' ? __SQLITE_DRIVER__ : 'better-sqlite3') as typeof Database;
  return new driver(path, options);
}

/**
 * OpenCode's database (issue 38): `opencode.db` (other release channels: `opencode-<channel>.db`),
 * SQLite in WAL mode, written by a running OpenCode at any moment. It is never opened where it
 * lies: opening it read-write could checkpoint it, `mode=ro` may create `-shm` beside it, and
 * `immutable=1` ignores the `-wal`, where the most recent rows are. Instead the database and its
 * `-wal` are copied, byte for byte, into a private folder of ours (mkdtemp, mode 0700; each file
 * created O_EXCL|O_NOFOLLOW, mode 0600), read through descriptors opened without following links
 * (safe-open.ts), regular files only, bounded in size (MAX_COPY_BYTES) and time (COPY_TIME_MS).
 * Each file's size, mtime and inode are taken before and after the copy; any change means the copy
 * may mix two states, so it is thrown away and taken again (COPY_ATTEMPTS), then refused
 * `database_busy`, never read half. The copy is opened with better-sqlite3, which replays the
 * copied `-wal` (recovery), and deleted once read. `-shm` is not copied: it is a shared-memory
 * index SQLite rebuilds from the `-wal` when the first connection opens a database, so it holds
 * nothing the `-wal` does not, and a copy of a mapped page being written could only mislead.
 * Nothing takes a lock on the user's files, so OpenCode is never blocked by a read.
 */

/** A database file OpenCode writes: `opencode.db`, or a release channel's `opencode-<channel>.db`. */
export const OPENCODE_DB_NAME = /^opencode(-[A-Za-z0-9_.]{1,40})?\.db$/;
export const isOpenCodeDatabaseName = (name: string) => OPENCODE_DB_NAME.test(name);

/**
 * The database a changed name stands for (the watcher, issue 38): the database itself, or its `-wal`
 * (where OpenCode appends every new row), as `<folder>/opencode.db`; null for any other name. `-shm`
 * is left out: it changes with every connection's reads and holds nothing the `-wal` does not.
 */
export function databaseOfChange(relPath: string): string | null {
  const path = relPath.endsWith('-wal') ? relPath.slice(0, -4) : relPath;
  return isOpenCodeDatabaseName(path.slice(path.lastIndexOf('/') + 1)) ? path : null;
}

/** An index entry of a database: the database's own (a failure) or one of its sessions' (`opencode.db#<hex>`). */
export function isDatabaseEntry(relPath: string): boolean {
  const base = relPath.slice(relPath.lastIndexOf('/') + 1);
  const cut = base.indexOf('#');
  return isOpenCodeDatabaseName(cut === -1 ? base : base.slice(0, cut));
}

/** Database plus `-wal` above this are not copied (`database_too_large`). */
export const MAX_COPY_BYTES = 64 * 1024 ** 3;
/** One copy taking longer than this is abandoned (`database_busy`). */
export const COPY_TIME_MS = 5 * 60_000;
/** Copies attempted before a database that keeps changing is refused (`database_busy`). */
export const COPY_ATTEMPTS = 4;
const CHUNK = 8 * 1024 * 1024;
/** How much of a private copy its readers map into memory (SQLite's mmap_size; the rest is read as usual). */
const COPY_MMAP_BYTES = 1024 ** 3;

/** Why a database could not be read: a scan error code, and for a schema that differs, the table or column. */
export class DatabaseReadError extends Error {
  constructor(
    readonly code: ScanErrorCode,
    readonly hint?: FormatHint,
  ) {
    super(code);
  }
}

export interface CopyOptions {
  maxBytes?: number;
  timeMs?: number;
  attempts?: number;
  /**
   * Called between chunks of the copy (tests change the files here). The index's copy awaits it, so a
   * test can hold a copy half-way while it checks that the thread's event loop still answers.
   */
  onChunk?: (attempt: number) => void | Promise<void>;
}

/**
 * A seam for tests of the index's copy (which takes no options from its callers): when set, it is each
 * copy's `onChunk` unless the caller gives one. Never set outside tests.
 */
export const databaseCopyTestHook: { onChunk: CopyOptions['onChunk'] | null } = { onChunk: null };

interface Identity {
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
}

const identity = (s: Stats): Identity => ({ size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, dev: s.dev });
const same = (a: Identity | null, b: Identity | null) =>
  a === null || b === null ? a === b : a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.dev === b.dev;

/** The `-wal` beside a database: null when there is none; a link or anything but a regular file is refused. */
function walIdentity(path: string): Identity | null {
  let s: Stats;
  try {
    s = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new DatabaseReadError('unreadable');
  }
  if (s.isSymbolicLink()) throw new DatabaseReadError('path_changed');
  if (!s.isFile()) throw new DatabaseReadError('not_regular_file');
  return identity(s);
}

function openChecked(path: string): { fd: number; stat: Stats } {
  try {
    return openRegularFile(path);
  } catch (error) {
    throw new DatabaseReadError(error instanceof OpenError ? error.problem : 'unreadable');
  }
}

/**
 * What the database and its `-wal` look like on disk, cheaply (two stats): a digest of their
 * sizes, mtimes and inodes. Unchanged since the last run, no session can have changed, so a
 * no-change re-index copies nothing.
 */
export function databaseState(path: string): string {
  const { fd, stat } = openChecked(path);
  closeSync(fd);
  const db = identity(stat);
  const wal = walIdentity(`${path}-wal`);
  const text = JSON.stringify([db, wal]);
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** A private copy of the database, opened; `close` closes it and deletes the copy. */
export interface DatabaseCopy {
  db: Database.Database;
  /** The copy's path (in the private folder). */
  path: string;
  /** Bytes copied (database and `-wal`). */
  bytes: number;
  /** Copies taken (1 when nothing changed during the first). */
  attempts: number;
  close(): void;
}

/** One file to copy: its descriptor, how many bytes (its size before), and where to. */
interface CopyJob {
  fd: number;
  size: number;
  target: string;
}

/** One attempt under way: the user's files opened (never through a link), their identities before. */
interface Attempt {
  path: string;
  main: { fd: number; stat: Stats };
  wal: { fd: number; stat: Stats } | null;
  before: readonly [Identity, Identity | null];
  jobs: CopyJob[];
}

/** Opens the database and its `-wal` for one attempt; null when the `-wal` changed while it was opened. */
function beginAttempt(path: string, dir: string, options: CopyOptions): Attempt | null {
  const main = openChecked(path);
  let wal: { fd: number; stat: Stats } | null = null;
  try {
    const walBefore = walIdentity(`${path}-wal`);
    if (walBefore !== null) wal = openChecked(`${path}-wal`);
    const before = [identity(main.stat), wal === null ? null : identity(wal.stat)] as const;
    if (wal !== null && !same(before[1], walBefore)) {
      endAttempt({ path, main, wal, before, jobs: [] });
      return null;
    }
    const total = before[0].size + (before[1]?.size ?? 0);
    if (total > (options.maxBytes ?? MAX_COPY_BYTES)) throw new DatabaseReadError('database_too_large');
    const jobs = [{ fd: main.fd, size: before[0].size, target: join(dir, 'opencode.db') }];
    if (wal !== null) jobs.push({ fd: wal.fd, size: before[1]!.size, target: join(dir, 'opencode.db-wal') });
    return { path, main, wal, before, jobs };
  } catch (error) {
    closeSync(main.fd);
    if (wal !== null) closeSync(wal.fd);
    throw error;
  }
}

/** After the copy: the descriptors' files unchanged, and the names still lead to them (no file swapped in or appeared). */
function heldStill(a: Attempt): boolean {
  const after = [identity(fstatSync(a.main.fd)), a.wal === null ? null : identity(fstatSync(a.wal.fd))] as const;
  let dbNow: Identity;
  try {
    const s = lstatSync(a.path);
    if (!s.isFile()) return false;
    dbNow = identity(s);
  } catch {
    return false;
  }
  const walNow = walIdentity(`${a.path}-wal`);
  return same(a.before[0], after[0]) && same(a.before[1], after[1]) && same(a.before[0], dbNow) && same(a.before[1], walNow);
}

function endAttempt(a: Attempt): void {
  closeSync(a.main.fd);
  if (a.wal !== null) closeSync(a.wal.fd);
}

const chunkBuffer = (size: number) => Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, size)));

/**
 * What the copy (copySteps) asks of its driver, answered with a count of bytes (0 for the rest): read or write a
 * chunk, say a chunk is done (`onChunk`, with the attempt's number), wait between attempts. So the copy is written
 * once, for `scan` on its thread (copyDatabaseSync) and for the index off the event loop (copyDatabase).
 */
type CopyIo =
  | { read: number; buf: Buffer; at: number; length: number }
  | { write: number; buf: Buffer; from: number; length: number }
  | { chunk: number }
  | { pause: number };

/** Copies one file chunk by chunk into a new private file of ours; the bytes copied. */
function* copyFileSteps(job: CopyJob, deadline: number, attempt: number): Generator<CopyIo, number, number> {
  const out = createPrivateFile(job.target);
  try {
    const buf = chunkBuffer(job.size);
    let done = 0;
    while (done < job.size) {
      const n = yield { read: job.fd, buf, at: done, length: Math.min(buf.length, job.size - done) };
      if (n === 0) break;
      let written = 0;
      while (written < n) written += yield { write: out, buf, from: written, length: n - written };
      done += n;
      yield { chunk: attempt };
      if (Date.now() > deadline) throw new DatabaseReadError('database_busy');
    }
    return done;
  } finally {
    closeSync(out);
  }
}

/**
 * Copies the database (and its `-wal`) into a new private folder and opens the copy, in up to `attempts` tries: a
 * try whose files did not hold still is thrown away and the next waits a little longer; the last fails
 * `database_busy`. The user's files are only ever read; nothing is created beside them.
 */
function* copySteps(path: string, options: CopyOptions): Generator<CopyIo, DatabaseCopy, number> {
  const attempts = options.attempts ?? COPY_ATTEMPTS;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const { dir, remove } = newCopyFolder();
    let bytes: number | null = null;
    try {
      const a = beginAttempt(path, dir, options);
      if (a !== null) {
        try {
          const deadline = Date.now() + (options.timeMs ?? COPY_TIME_MS);
          let n = 0;
          for (const job of a.jobs) n += yield* copyFileSteps(job, deadline, attempt);
          if (heldStill(a)) bytes = n;
        } finally {
          endAttempt(a);
        }
      }
    } catch (error) {
      remove();
      throw error instanceof DatabaseReadError ? error : new DatabaseReadError('unreadable');
    }
    if (bytes !== null) return openCopy(dir, bytes, attempt, remove);
    remove();
    if (attempt < attempts) yield { pause: 50 * attempt };
  }
  throw new DatabaseReadError('database_busy');
}

/**
 * Runs steps to their end, answering each with `perform`: on this thread while it answers at once, awaiting it when it
 * answers with a promise. An error of `perform` is thrown into the steps, where it would have been thrown.
 */
function drive<T>(steps: Generator<CopyIo, T, number>, perform: (io: CopyIo) => number | Promise<number>): T | Promise<T> {
  const run = (resume: () => IteratorResult<CopyIo, T>): T | Promise<T> => {
    let next = resume();
    while (!next.done) {
      let answer: number | Promise<number>;
      try {
        answer = perform(next.value);
      } catch (error) {
        next = steps.throw(error);
        continue;
      }
      if (typeof answer !== 'number')
        return answer.then(
          (n) => run(() => steps.next(n)),
          (error: unknown) => run(() => steps.throw(error)),
        );
      next = steps.next(answer);
    }
    return next.value;
  };
  return run(() => steps.next());
}

const readAsync = promisify(read);
const writeAsync = promisify(write);

/** The copy on this thread (`scan`: a command with no event loop to keep free); throws DatabaseReadError. */
export function copyDatabaseSync(path: string, options: CopyOptions = {}): DatabaseCopy {
  // Every answer is a number: drive returns the copy itself.
  return drive(copySteps(path, options), (io) => {
    if ('read' in io) return readSync(io.read, io.buf, 0, io.length, io.at);
    if ('write' in io) return writeSync(io.write, io.buf, io.from, io.length);
    if ('chunk' in io) void options.onChunk?.(io.chunk);
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, io.pause);
    return 0;
  }) as DatabaseCopy;
}

/**
 * The same copy for the index, off the event loop: the bytes move through libuv's thread pool and the
 * retries wait on timers, so the thread that plans (the server's index thread, or a server's own thread
 * for a database in memory) keeps answering while a large database is copied. Only the recovery of the
 * copied `-wal` (SQLite, synchronous) runs on the thread, in time bounded by the `-wal`'s size.
 */
export async function copyDatabase(path: string, options: CopyOptions = {}): Promise<DatabaseCopy> {
  const hook = options.onChunk ?? databaseCopyTestHook.onChunk ?? undefined;
  return await drive(copySteps(path, options), async (io) => {
    if ('read' in io) return (await readAsync(io.read, io.buf, 0, io.length, io.at)).bytesRead;
    if ('write' in io) return (await writeAsync(io.write, io.buf, io.from, io.length)).bytesWritten;
    if ('chunk' in io) await hook?.(io.chunk);
    else await sleep(io.pause);
    return 0;
  });
}

/** Opens our copy (recovering its copied `-wal`), folded into one read-only file; deletes the folder when it cannot. */
function openCopy(dir: string, bytes: number, attempt: number, remove: () => void): DatabaseCopy {
  let db: Database.Database;
  try {
    // Read-write on our own copy: the first connection replays the copied -wal into it (recovery).
    db = openSqlite(join(dir, 'opencode.db'), { fileMustExist: true });
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    // Never synced to disk: our private copy, read at once and deleted after the run (a crash leaves nothing to
    // trust). Leaving WAL mode synced the whole file, every page just written by the copy (91 MB: 47 ms of CPU).
    db.pragma('synchronous = OFF');
    // Our copy, recovered: folded into one file, so the run's worker threads can each open it read-only.
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    db.pragma('query_only = 1');
    db.pragma(`mmap_size = ${COPY_MMAP_BYTES}`);
  } catch {
    remove();
    throw new DatabaseReadError('unreadable');
  }
  return {
    db,
    path: join(dir, 'opencode.db'),
    bytes,
    attempts: attempt,
    close: () => {
      db.close();
      remove();
    },
  };
}

const newCopyFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tcf-opencode-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
};

/** Declared type affinity a column must have: TEXT for ids and JSON, INTEGER for times and counts, REAL for cost. */
function expectedType(column: string): string {
  if (column === 'cost') return 'REAL';
  if (column.startsWith('time_') || column.startsWith('tokens_') || /^summary_(additions|deletions|files)$/.test(column)) return 'INTEGER';
  return 'TEXT';
}

/**
 * The schema checked against the one known (shared/opencode-schema.ts): null when it matches, else
 * the hint naming the table (missing, or a column not known) or the column (missing, or another type).
 */
export function schemaDifference(db: Database.Database): OpenCodeSchemaHint | null {
  for (const table of Object.keys(OPENCODE_DB_SCHEMA) as OpenCodeTable[]) {
    const { required, optional } = OPENCODE_DB_SCHEMA[table];
    const columns = db.prepare<[], { name: string; type: string }>(`SELECT name, type FROM pragma_table_info('${table}')`).all();
    if (columns.length === 0) return `opencode_db_${table}`;
    const known = new Set<string>([...required, ...optional]);
    for (const c of columns) {
      if (!known.has(c.name)) return `opencode_db_${table}`;
      if (c.type.toUpperCase() !== expectedType(c.name)) return `opencode_db_${table}__${c.name}` as OpenCodeSchemaHint;
    }
    const present = new Set(columns.map((c) => c.name));
    for (const c of required) if (!present.has(c)) return `opencode_db_${table}__${c}` as OpenCodeSchemaHint;
  }
  return null;
}

/** One session as planning sees it: what decides whether it is read again. */
export interface SessionStamp {
  /** OpenCode's session id: in memory only, never stored (its digest names the entry). */
  id: string;
  timeUpdated: number;
  messages: number;
  parts: number;
}

/** Every session of the database with its `time_updated` and row counts (one pass over each table's session index). */
export function listSessions(db: Database.Database): SessionStamp[] {
  const messages = new Map<string, number>();
  for (const r of db.prepare<[], { s: string; n: number }>('SELECT session_id AS s, count(*) AS n FROM message GROUP BY session_id').all())
    messages.set(r.s, r.n);
  const parts = new Map<string, number>();
  for (const r of db.prepare<[], { s: string; n: number }>('SELECT session_id AS s, count(*) AS n FROM part GROUP BY session_id').all()) parts.set(r.s, r.n);
  return db
    .prepare<[], { id: unknown; t: unknown }>('SELECT id, time_updated AS t FROM session ORDER BY id')
    .all()
    .filter((r): r is { id: string; t: number } => typeof r.id === 'string')
    .map((r) => ({ id: r.id, timeUpdated: typeof r.t === 'number' ? r.t : 0, messages: messages.get(r.id) ?? 0, parts: parts.get(r.id) ?? 0 }));
}

/** The index entry of a session: the database's relative name, `#`, and 16 hex characters of the SHA-256 of the session id. */
export function sessionEntryName(databaseName: string, sessionId: string): string {
  return `${databaseName}#${createHash('sha256').update(sessionId).digest('hex').slice(0, 16)}`;
}

/** The 128-bit fingerprint an entry keeps for a session: its `time_updated` and row counts. */
export function sessionFingerprint(s: SessionStamp): string {
  return createHash('sha256').update(`${s.timeUpdated}|${s.messages}|${s.parts}`).digest('hex').slice(0, 32);
}

const parseJson = (text: unknown): unknown => {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A session row as OpenCode's `fromRow` turns it into the export's `info` (undefined fields left out, as
 * JSON.stringify does; `cost` and `tokens` where the database has those columns, as since v1.18).
 */
function sessionInfo(row: Record<string, unknown>): Record<string, unknown> {
  const summary =
    (row.summary_additions ?? null) !== null || (row.summary_deletions ?? null) !== null || (row.summary_files ?? null) !== null
      ? {
          additions: row.summary_additions ?? 0,
          deletions: row.summary_deletions ?? 0,
          files: row.summary_files ?? 0,
          diffs: parseJson(row.summary_diffs) ?? undefined,
        }
      : undefined;
  const model = parseJson(row.model);
  return {
    id: row.id,
    slug: row.slug,
    projectID: row.project_id,
    workspaceID: row.workspace_id ?? undefined,
    directory: row.directory,
    path: row.path ?? undefined,
    parentID: row.parent_id ?? undefined,
    title: row.title,
    agent: row.agent ?? undefined,
    model: isObject(model) ? { id: model.id, providerID: model.providerID, variant: model.variant } : undefined,
    version: row.version,
    summary,
    share: row.share_url ? { url: row.share_url } : undefined,
    revert: parseJson(row.revert) ?? undefined,
    permission: parseJson(row.permission) ?? undefined,
    cost: row.cost ?? undefined,
    tokens:
      'tokens_input' in row
        ? {
            input: row.tokens_input,
            output: row.tokens_output,
            reasoning: row.tokens_reasoning,
            cache: { read: row.tokens_cache_read, write: row.tokens_cache_write },
          }
        : undefined,
    time: {
      created: row.time_created,
      updated: row.time_updated,
      compacting: row.time_compacting ?? undefined,
      archived: row.time_archived ?? undefined,
    },
  };
}

export type SessionDocument =
  | { status: 'ok'; value: { info: Record<string, unknown>; messages: unknown[] } }
  | { status: 'failed'; code: ScanErrorCode }
  | { status: 'gone' };

/** Prepared reads of one copy, reused for every session of a run. */
export interface SessionReader {
  read(sessionId: string): SessionDocument;
  /** Bytes of a session's `data` (what a plan weighs it by), read through the session indexes. */
  bytes(sessionId: string): number;
  close(): void;
}

/**
 * The session as `opencode export` holds it (printed `JSON.stringify(…, null, 2)`): `info` rebuilt from the
 * session's columns as OpenCode's fromRow does, each message `{info: {...data, id, sessionID}, parts}`
 * in `time_created, id` order, each part `{...data, id, sessionID, messageID}` in id order. So the
 * OpenCode adapter reads it exactly as the export, and its lines are the export's lines. A `data` that
 * is not a JSON object fails the session `malformed_json`, a part whose message is not the session's `invalid_structure`
 * (line: none, the database has no lines).
 */
export function sessionReader(db: Database.Database): SessionReader {
  const session = db.prepare<[string], Record<string, unknown>>('SELECT * FROM session WHERE id = ?');
  // Rows as arrays ([id, data], [id, message_id, data]), read whole: cheaper per row than objects and iterate().
  const messages = db.prepare<[string], [unknown, unknown]>('SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id').raw();
  const parts = db.prepare<[string], [unknown, unknown, unknown]>('SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY id').raw();
  // octet_length: the bytes SQLite's record header already holds, without loading each value (length() counts characters).
  // Every session's at once, when first asked: two grouped scans cost less than two queries per session.
  let sizes: Map<string, number> | null = null;
  const sizesOf = (): Map<string, number> => {
    const out = new Map<string, number>();
    for (const table of ['message', 'part'])
      for (const [id, n] of db.prepare<[], [unknown, number]>(`SELECT session_id, sum(octet_length(data)) FROM ${table} GROUP BY session_id`).raw().all())
        if (typeof id === 'string') out.set(id, (out.get(id) ?? 0) + n);
    return out;
  };
  return {
    bytes: (sessionId) => (sizes ??= sizesOf()).get(sessionId) ?? 0,
    close: () => db.close(),
    read: (sessionId) => {
      const row = session.get(sessionId);
      if (row === undefined) return { status: 'gone' };
      const byMessage = new Map<string, unknown[]>();
      for (const [id, messageId, text] of parts.all(sessionId)) {
        const data = parseJson(text);
        if (!isObject(data) || typeof id !== 'string' || typeof messageId !== 'string') return { status: 'failed', code: 'malformed_json' };
        // The parsed object itself gets the ids, as `{...data, id, sessionID, messageID}` would (a key it already
        // has keeps its place, a new one goes last): the same document, without copying every part.
        data.id = id;
        data.sessionID = sessionId;
        data.messageID = messageId;
        const list = byMessage.get(messageId);
        if (list === undefined) byMessage.set(messageId, [data]);
        else list.push(data);
      }
      const out: unknown[] = [];
      for (const [id, text] of messages.all(sessionId)) {
        const data = parseJson(text);
        if (!isObject(data) || typeof id !== 'string') return { status: 'failed', code: 'malformed_json' };
        data.id = id;
        data.sessionID = sessionId;
        out.push({ info: data, parts: byMessage.get(id) ?? [] });
        byMessage.delete(id);
      }
      // A part of the session whose message is not the session's: the export would not show it, so it is not read as nothing.
      if (byMessage.size > 0) return { status: 'failed', code: 'invalid_structure' };
      return { status: 'ok', value: { info: sessionInfo(row), messages: out } };
    },
  };
}

/** A database's sessions as files to read (`scan`): each rebuilt into a private folder, or a failure by name. */
export interface MaterialisedSessions {
  files: { path: string; name: string }[];
  failures: { name: string; code: ScanErrorCode; hint?: FormatHint }[];
  /** Deletes the rebuilt sessions. */
  cleanup(): void;
}

/**
 * Every session of a database rebuilt as `opencode export` prints it, each into a file of a private folder
 * (mode 0700, files 0600) named `<database>#<16 hex>` for the report: what `scan` reads. A database that
 * cannot be read is one failure under its own name.
 */
export function materialiseSessions(entry: { path: string; name: string }, options: CopyOptions = {}): MaterialisedSessions {
  const out: MaterialisedSessions = { files: [], failures: [], cleanup: () => {} };
  let copy: DatabaseCopy;
  try {
    copy = copyDatabaseSync(entry.path, options);
  } catch (error) {
    const e = error instanceof DatabaseReadError ? error : new DatabaseReadError('unreadable');
    out.failures.push({ name: entry.name, code: e.code, ...(e.hint ? { hint: e.hint } : {}) });
    return out;
  }
  const dir = mkdtempSync(join(tmpdir(), 'tcf-opencode-sessions-'));
  out.cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const differs = schemaDifference(copy.db);
    if (differs !== null) {
      out.failures.push({ name: entry.name, code: 'database_schema_unknown', hint: differs });
      return out;
    }
    const reader = sessionReader(copy.db);
    for (const session of listSessions(copy.db)) {
      const name = sessionEntryName(entry.name, session.id);
      const read = reader.read(session.id);
      if (read.status !== 'ok') {
        out.failures.push({ name, code: read.status === 'failed' ? read.code : 'unreadable' });
        continue;
      }
      const path = join(dir, `${out.files.length}.json`);
      writePrivateText(path, `${JSON.stringify(read.value, null, 2)}\n`);
      out.files.push({ path, name });
    }
  } catch {
    out.failures.push({ name: entry.name, code: 'unreadable' });
  } finally {
    copy.close();
  }
  return out;
}

/**
 * What the index plans for a session it must read: the private copy's path and the session id, joined by
 * U+0000 (which no path holds). It never leaves the run (the entry is stored under sessionEntryName); a
 * worker thread turns it back into the session's document (materialiseSession).
 */
// `\0\0<copy>\0<session id>`: no real path holds NUL, and file-name-bytes.ts's marked paths (`\0<folder>\0<name>`,
// the folder never empty) never open with two, so a session source is never taken for a file and a file never for one.
const SOURCE_SEP = '\u0000';
const SOURCE_MARK = '\u0000\u0000';
export const sessionSource = (copyPath: string, sessionId: string) => `${SOURCE_MARK}${copyPath}${SOURCE_SEP}${sessionId}`;
export const isSessionSource = (path: string) => path.startsWith(SOURCE_MARK);

/** Writes a rebuilt session into a new file of our private folder (never an existing file, never through a link). */
function writePrivateText(path: string, text: string): void {
  const fd = createPrivateFile(path);
  try {
    const bytes = Buffer.from(text);
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } finally {
    closeSync(fd);
  }
}

/** Connections to copies, one per thread and copy, kept for the run (the copy is read-only and private). */
const sources = new Map<string, SessionReader>();

/**
 * One session of a copy (a sessionSource) as the document `opencode export` prints, built in memory by the
 * thread that analyses it (so the rebuild is shared between the cores like the reading): each `data` column
 * parsed once, the export's text made once (its bytes are what lines and evidence digests are of), the line of
 * each object computed from the value (read-document.ts exportDocument), never written to a file, never parsed
 * again. A document nested deeper than a file may be is `nesting_too_deep` (line 1) and one above the document
 * bound `malformed_json` (line 1), as the same export read from a file would be.
 */
export function sessionDocument(source: string): BuiltDocument | { code: ScanErrorCode; line: number | null } {
  const at = source.indexOf(SOURCE_SEP, SOURCE_MARK.length);
  const copyPath = source.slice(SOURCE_MARK.length, at);
  let reader = sources.get(copyPath);
  let read: SessionDocument;
  try {
    if (reader === undefined) {
      const db = openSqlite(copyPath, { readonly: true, fileMustExist: true });
      // Our private, read-only copy: read through a memory map (no read() call and buffer copy per page).
      db.pragma(`mmap_size = ${COPY_MMAP_BYTES}`);
      reader = sessionReader(db);
      sources.set(copyPath, reader);
    }
    read = reader.read(source.slice(at + 1));
  } catch {
    return { code: 'unreadable', line: null };
  }
  if (read.status !== 'ok') return { code: read.status === 'failed' ? read.code : 'unreadable', line: null };
  const built = exportDocument(read.value);
  if (built === 'too_deep') return { code: 'nesting_too_deep', line: 1 };
  if (built === 'too_large') return { code: 'malformed_json', line: 1 };
  return built;
}

/** Closes this thread's connection to a copy (before the copy is deleted). */
export function closeSessionSource(copyPath: string): void {
  sources.get(copyPath)?.close();
  sources.delete(copyPath);
}
