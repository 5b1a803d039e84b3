import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the fixture generators, without types
import { rowsOf, writeOpenCodeDatabase } from '../../fixtures/make-opencode-db.mjs';
import { buildApp } from '../../server/app/build-app';
import { indexDatabase } from '../../server/app/index-database';
import { IndexRunner } from '../../server/index/index-runner';
import { rootDifferences } from '../../server/live/reconcile-root';
import { RootWatcher } from '../../server/live/watch-folders';
import { databaseCopyTestHook, sessionEntryName } from '../../server/scan/opencode-db';
import { type Db, openDatabase } from '../../server/store/database';
import { prepareIndexStatements } from '../../server/store/index-statements';
import { sqliteIndexStore } from '../../server/store/index-store';
import { addRoot, RootError } from '../../server/store/roots';
import { HOST, TOKEN } from '../support/api-app';
import { type Doc, exportDoc, renamed } from '../support/opencode-export';
import { runCli } from '../support/run-cli';
import { waitUntil } from '../support/wait-until';

/**
 * Issue 38, OpenCode's database where it lives: named as the file itself (CLI, API) as well as its
 * folder, with the same counts; its copy off the event loop (the server answers while it is copied);
 * followed by `serve`'s watcher (a new session in -wal is read like a changed transcript). The database
 * is generated here from the project's own export fixture (fixtures/make-opencode-db.mjs).
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-ocdb-src-'));
// This file's private copies in a temporary folder of its own: opencode-db.test.ts counts those left in the shared one.
const ownTmp = join(tmp, 'tmp');
mkdirSync(ownTmp);
const savedTmpdir = process.env.TMPDIR;
process.env.TMPDIR = ownTmp;
afterAll(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => {
  databaseCopyTestHook.onChunk = null;
});

let n = 0;
function folder(name: string): string {
  const dir = join(tmp, `${name}-${n++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Everything the index holds of its files but the root: names, counts, findings (lines, digests), diagnostics. */
function readingOf(db: Db) {
  const files = db
    .prepare(
      `SELECT rel_path, status, error_code, agent, agent_version, model_messages, tool_calls, tool_results, assistant_messages, findings,
              gone_ms IS NOT NULL AS gone FROM files ORDER BY rel_path`,
    )
    .all();
  const findings = db
    .prepare('SELECT code, first_line, last_line, source_lines, lower(hex(evidence_sha256)) AS digest, message_hash, details FROM findings ORDER BY first_line')
    .all();
  const diagnostics = (db.prepare('SELECT * FROM file_diagnostics').all() as Record<string, unknown>[]).map(({ file_id: _, ...rest }) => rest);
  return { files, findings, diagnostics };
}

/** OpenCode writing a new session into its database (rows in -wal: the writer stays open, nothing checkpointed). */
function openCodeWrites(dbPath: string, doc: Doc): Database.Database {
  const writer = new Database(dbPath);
  writer.pragma('wal_autocheckpoint = 0');
  const { session, messages, parts } = rowsOf(doc);
  const put = (table: string, row: Record<string, unknown>) => {
    const keys = Object.keys(row);
    writer.prepare(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((k) => `@${k}`).join(', ')})`).run(row);
  };
  writer.transaction(() => {
    put('session', session);
    for (const m of messages) put('message', m);
    for (const p of parts) put('part', p);
  })();
  return writer;
}

describe("OpenCode's database named as the file itself", () => {
  it('`index` reads the database file as it reads its folder: the same entries, counts, findings and diagnostics', () => {
    const native = folder('cli');
    writeOpenCodeDatabase(native, [exportDoc(), renamed(exportDoc(), 'b')]);
    writeFileSync(join(native, 'notes.txt'), 'not read');
    const byFolder = join(folder('cli-index'), 'a.db');
    const byFile = join(folder('cli-index'), 'b.db');
    const a = runCli(['index', native, '--db', byFolder]);
    const b = runCli(['index', join(native, 'opencode.db'), '--db', byFile]);
    expect(a.stderr).not.toMatch(/error/i);
    expect(b.status).toBe(a.status);
    // The same summary but the time it took.
    const summary = (s: string) => s.replace(/ in [0-9.]+ s;/, ';');
    expect(summary(b.stdout)).toBe(summary(a.stdout));
    expect(b.stdout).toMatch(/files seen: 2 \(2 read/);
    const [da, db] = [openDatabase(byFolder), openDatabase(byFile)];
    try {
      expect(readingOf(db)).toEqual(readingOf(da));
      expect((readingOf(db).files as { rel_path: string }[]).map((f) => f.rel_path)).toEqual(
        [sessionEntryName('opencode.db', 'ses_fixture1'), sessionEntryName('opencode.db', 'ses_fixture1_b')].sort(),
      );
    } finally {
      da.close();
      db.close();
    }
    // Any other file is still no folder; a database file inside a folder already added overlaps it.
    const other = runCli(['index', join(native, 'notes.txt'), '--db', join(folder('cli-index'), 'c.db')]);
    expect(other.status).not.toBe(0);
    expect(other.stderr).toMatch(/not a folder/);
    const both = openDatabase(join(folder('overlap'), 'i.db'));
    addRoot(both, native);
    expect(() => addRoot(both, join(native, 'opencode.db'))).toThrow(RootError);
    both.close();
  });

  it('the Folders page adds the database file (POST /api/folders) and its index run reads it as its folder', async () => {
    const native = folder('api');
    writeOpenCodeDatabase(native, [exportDoc(), renamed(exportDoc(), 'b')]);
    const dir = folder('api-index');
    const reference = openDatabase(join(dir, 'ref.db'));
    addRoot(reference, native);
    await indexDatabase(reference, { analyser: 'inline' });
    const db = openDatabase(join(dir, 'index.db'));
    const app = await buildApp({ db, token: TOKEN, allowedHosts: [HOST], demo: false, toolVersion: '9.9.9', analyser: 'inline' });
    try {
      const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: { host: HOST, 'x-tcf-token': TOKEN }, payload });
      const added = await post('/api/folders', { path: join(native, 'opencode.db') });
      expect(added.statusCode).toBe(201);
      expect(added.json()).toMatchObject({ label: 'opencode.db', path: join(native, 'opencode.db') });
      const notes = join(native, 'notes.txt');
      writeFileSync(notes, 'x');
      const refused = await post('/api/folders', { path: notes });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('not_directory');
      expect((await post('/api/index-runs', { folder_id: added.json().id })).statusCode).toBe(202);
      const current = async () => (await app.inject({ url: '/api/index-runs/current', headers: { host: HOST } })).json();
      await waitUntil(async () => (await current()).state !== 'running', 60_000, 'the index run');
      expect(await current()).toMatchObject({ state: 'done', files_done: 2, files_failed: 0 });
      expect(readingOf(db)).toEqual(readingOf(reference));
      const agents = (await app.inject({ url: '/api/agents', headers: { host: HOST } })).json().rows;
      expect(agents).toEqual([expect.objectContaining({ agent: 'opencode', files: 2, findings: 2 })]);
    } finally {
      await app.close();
      db.close();
      reference.close();
    }
  }, 120_000);
});

describe("OpenCode's database copied off the event loop", () => {
  it('the server answers /api/health while a database is being copied (the copy held half-way), then reads it whole', async () => {
    const native = folder('held');
    writeOpenCodeDatabase(native, [exportDoc()]);
    // A database in memory: the run plans on the server's own thread, the case where a synchronous copy held it.
    const db = openDatabase(':memory:');
    const app = await buildApp({ db, token: TOKEN, allowedHosts: [HOST], demo: false, toolVersion: '9.9.9', analyser: 'inline' });
    let entered!: () => void;
    const copying = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let chunks = 0;
    databaseCopyTestHook.onChunk = async () => {
      chunks++;
      entered();
      await released;
    };
    try {
      const added = await app.inject({
        method: 'POST',
        url: '/api/folders',
        headers: { host: HOST, 'x-tcf-token': TOKEN },
        payload: { path: join(native, 'opencode.db') },
      });
      expect(added.statusCode).toBe(201);
      const start = await app.inject({ method: 'POST', url: '/api/index-runs', headers: { host: HOST, 'x-tcf-token': TOKEN }, payload: {} });
      expect(start.statusCode).toBe(202);
      await copying;
      // The copy is waiting in its first chunk: the same thread answers.
      const health = await app.inject({ url: '/api/health', headers: { host: HOST } });
      expect(health.statusCode).toBe(200);
      const during = (await app.inject({ url: '/api/index-runs/current', headers: { host: HOST } })).json();
      expect(during).toMatchObject({ state: 'running', phase: 'walking', files_done: 0 });
      expect(chunks).toBe(1);
      release();
      await waitUntil(
        async () => (await app.inject({ url: '/api/index-runs/current', headers: { host: HOST } })).json().state !== 'running',
        30_000,
        'the run',
      );
      expect((await app.inject({ url: '/api/index-runs/current', headers: { host: HOST } })).json()).toMatchObject({
        state: 'done',
        files_done: 1,
        files_failed: 0,
      });
      // Both files copied (the database and its -wal), each a chunk: the hook held the first.
      expect(chunks).toBe(2);
      expect(db.prepare("SELECT count(*) AS n FROM files WHERE status = 'ok' AND findings = 1").get()).toEqual({ n: 1 });
    } finally {
      release();
      await app.close();
      db.close();
    }
  });
});

describe.runIf(process.platform === 'linux')("`serve`'s watcher follows OpenCode's database", () => {
  for (const named of ['folder', 'file'] as const) {
    it(`a new session written into -wal is read like a changed transcript (the database named as its ${named})`, async () => {
      const native = folder(`watch-${named}`);
      writeOpenCodeDatabase(native, [exportDoc()]);
      const dbPath = join(native, 'opencode.db');
      const db = openDatabase(join(folder('watch-index'), 'w.db'));
      addRoot(db, named === 'folder' ? native : dbPath);
      await indexDatabase(db, { analyser: 'inline' });
      const runner = new IndexRunner(sqliteIndexStore(db), 'inline');
      const watcher = new RootWatcher(db, runner, { debounceMs: 30, reconcileMs: 0, databaseGapMs: 0 });
      const updates: { files_changed: number; new_findings: { code: string }[] }[] = [];
      watcher.on('update', (u) => updates.push(u));
      await watcher.start();
      const entry = sessionEntryName('opencode.db', 'ses_fixture1_new');
      const row = () => db.prepare<[string], { status: string; findings: number }>('SELECT status, findings FROM files WHERE rel_path = ?').get(entry);
      const [root] = prepareIndexStatements(db).allRoots.all();
      expect(await rootDifferences(db, root!, () => false)).toEqual([]);
      // A change the watch missed is found by the reconciliation (two stats of the database and its -wal).
      const missed = openCodeWrites(dbPath, renamed(exportDoc(), 'missed'));
      missed.close();
      expect(await rootDifferences(db, root!, () => false)).toEqual(['opencode.db']);
      await waitUntil(() => updates.length > 0, 10_000, 'the missed session');
      updates.length = 0;
      const writer = openCodeWrites(dbPath, renamed(exportDoc(), 'new'));
      try {
        await waitUntil(() => updates.length > 0, 10_000, 'the new session');
        expect(row()).toEqual({ status: 'ok', findings: 1 });
        expect(updates.at(-1)).toMatchObject({ files_changed: 1, new_findings: [{ code: 'unparseable_tool_input' }] });
        // The session already read is not read again; the reconciliation then sees nothing to do.
        const [root] = prepareIndexStatements(db).allRoots.all();
        expect(await rootDifferences(db, root!, () => false)).toEqual([]);
        expect(updates.reduce((t, u) => t + u.files_changed, 0)).toBe(1);
        // The same as a full index of the database as it now stands.
        const fresh = openDatabase(join(folder('watch-fresh'), 'f.db'));
        addRoot(fresh, named === 'folder' ? native : dbPath);
        await indexDatabase(fresh, { analyser: 'inline' });
        expect(readingOf(db)).toEqual(readingOf(fresh));
        fresh.close();
        // A session deleted: kept as gone, as a full run keeps it.
        for (const table of ['part', 'message']) writer.prepare(`DELETE FROM ${table} WHERE session_id = 'ses_fixture1_new'`).run();
        writer.prepare("DELETE FROM session WHERE id = 'ses_fixture1_new'").run();
        await waitUntil(
          () => db.prepare<[string], { gone: number }>('SELECT gone_ms IS NOT NULL AS gone FROM files WHERE rel_path = ?').get(entry)?.gone === 1,
          10_000,
          'the deleted session kept as gone',
        );
      } finally {
        writer.close();
        await watcher.close();
        db.close();
      }
    });
  }

  for (const heard of [true, false]) {
    it(`a database deleted from its folder: its sessions kept as gone, as a full run keeps them (${heard ? 'the watch hears it' : 'found by the reconciliation'})`, async () => {
      const native = folder('watch-deleted');
      writeOpenCodeDatabase(native, [exportDoc(), renamed(exportDoc(), 'b')]);
      const db = openDatabase(join(folder('watch-deleted-index'), 'w.db'));
      addRoot(db, native);
      await indexDatabase(db, { analyser: 'inline' });
      const [root] = prepareIndexStatements(db).allRoots.all();
      const present = () => db.prepare("SELECT count(*) AS n FROM files WHERE rel_path LIKE 'opencode.db#%' AND gone_ms IS NULL").pluck().get() as number;
      expect(present()).toBe(2);
      expect(await rootDifferences(db, root!, () => false)).toEqual([]);
      const remove = () => {
        for (const suffix of ['-wal', '-shm', '']) rmSync(join(native, `opencode.db${suffix}`), { force: true });
      };
      // Missed by the watch (deleted before it starts): the reconciliation finds it, by the database no longer walked.
      if (!heard) {
        remove();
        expect(await rootDifferences(db, root!, () => false)).toEqual(['opencode.db']);
      }
      const watcher = new RootWatcher(db, new IndexRunner(sqliteIndexStore(db), 'inline'), {
        debounceMs: 30,
        reconcileMs: heard ? 0 : 50,
        databaseGapMs: 0,
      });
      await watcher.start();
      try {
        if (heard) remove();
        await waitUntil(() => present() === 0, 10_000, 'the sessions kept as gone');
        expect(await rootDifferences(db, root!, () => false)).toEqual([]);
        const watched = readingOf(db);
        // A full run over the folder as it now stands changes nothing the watcher wrote.
        await indexDatabase(db, { analyser: 'inline' });
        expect(readingOf(db)).toEqual(watched);
      } finally {
        await watcher.close();
        db.close();
      }
    });
  }
});
