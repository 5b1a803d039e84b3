import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the fixture generators, without types
import { OPENCODE_DDL, writeOpenCodeDatabase } from '../../fixtures/make-opencode-db.mjs';
import { indexDatabase } from '../../server/app/index-database';
import { runScan } from '../../server/cli/scan-command';
import { type CopyOptions, copyDatabase, copyDatabaseSync, DatabaseReadError, sessionEntryName } from '../../server/scan/opencode-db';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { exportDoc, exportText, renamed } from '../support/opencode-export';

/**
 * Issue 38: OpenCode's database read safely and incrementally. The database is generated here, in a temporary
 * folder, from the project's own `opencode export` fixture (fixtures/make-opencode-db.mjs: OpenCode's table and
 * column names, WAL mode, its last message only in -wal), so each test also proves the same session gives the
 * same counts, findings and diagnostics in both layouts.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-ocdb-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function folder(name: string): string {
  const dir = join(tmp, `${name}-${n++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function indexed(root: string): Promise<{ db: Db; run: () => ReturnType<typeof indexDatabase> }> {
  const db = openDatabase(join(mkdtempSync(join(tmp, 'index-')), 'index.db'));
  addRoot(db, root);
  return { db, run: () => indexDatabase(db, { analyser: 'inline' }) };
}

const fileRows = (db: Db) =>
  db
    .prepare(
      `SELECT rel_path, status, error_code, format_hint, agent, agent_version, model_messages, tool_calls, tool_results, assistant_messages,
              findings, gone_ms IS NOT NULL AS gone FROM files ORDER BY rel_path`,
    )
    .all() as Record<string, unknown>[];

/** Everything a session's reading left in the index but its name: counts, findings (lines, digests, details), diagnostics. */
function readingOf(db: Db) {
  const files = fileRows(db).map(({ rel_path: _, ...rest }) => rest);
  const findings = db
    .prepare('SELECT code, first_line, last_line, source_lines, lower(hex(evidence_sha256)) AS digest, message_hash, details FROM findings ORDER BY first_line')
    .all();
  const diagnostics = db.prepare('SELECT * FROM file_diagnostics').all() as Record<string, unknown>[];
  return { files, findings, diagnostics: diagnostics.map(({ file_id: _, ...rest }) => rest) };
}

const hashes = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex'),
      ]),
  );

const copiesLeft = () => readdirSync(tmpdir()).filter((f) => f.startsWith('tcf-opencode-'));

describe("OpenCode's database", () => {
  it('a session reads as the same session in the export: the same counts, findings (lines, digests) and diagnostics', async () => {
    const exported = folder('export');
    writeFileSync(join(exported, 'opencode-invalid-call.jsonl'), exportText);
    const native = folder('native');
    const made = writeOpenCodeDatabase(native, [exportDoc()]);
    expect(made.inWal.length).toBeGreaterThan(1);

    const a = await indexed(exported);
    const b = await indexed(native);
    await a.run();
    const summary = await b.run();
    expect(summary.filesFailed).toBe(0);
    const fromExport = readingOf(a.db);
    const fromDb = readingOf(b.db);
    expect(fromExport.files).toEqual([expect.objectContaining({ status: 'ok', agent: 'opencode', findings: 1 })]);
    expect(fromExport.findings).toHaveLength(1);
    expect(fromDb).toEqual(fromExport);
    // The entry is named by a digest of the session id: the id itself is stored nowhere.
    expect(fileRows(b.db).map((f) => f.rel_path)).toEqual([sessionEntryName('opencode.db', 'ses_fixture1')]);
    expect(fileRows(b.db)[0]!.rel_path).toMatch(/^opencode\.db#[0-9a-f]{16}$/);
  });

  it('read by worker threads (each rebuilds its sessions from the copy) as inline', async () => {
    const native = folder('workers');
    writeOpenCodeDatabase(native, [exportDoc(), renamed(exportDoc(), 'b')]);
    const inline = await indexed(native);
    await inline.run();
    const threads = await indexed(native);
    const summary = await indexDatabase(threads.db, { analyser: 'workers' });
    expect(summary).toMatchObject({ filesChanged: 2, filesFailed: 0 });
    expect(readingOf(threads.db)).toEqual(readingOf(inline.db));
  }, 120_000);

  it('`scan` reads the database (named as a folder or as the file itself) as it reads the export, and deletes what it rebuilt', () => {
    const exported = folder('scan-export');
    writeFileSync(join(exported, 'opencode-invalid-call.jsonl'), exportText);
    const native = folder('scan-native');
    writeOpenCodeDatabase(native, [exportDoc()]);
    const copies = copiesLeft();
    const fromExport = runScan([exported]);
    const name = sessionEntryName('opencode.db', 'ses_fixture1');
    const renamedReport = (r: ReturnType<typeof runScan>) => JSON.parse(JSON.stringify(r).replaceAll('opencode-invalid-call.jsonl', name));
    expect(fromExport.findings.map((f) => f.code)).toEqual(['unparseable_tool_input']);
    expect(runScan([native])).toEqual(renamedReport(fromExport));
    expect(runScan([join(native, 'opencode.db')])).toEqual(renamedReport(fromExport));
    expect(copiesLeft()).toEqual(copies);
    // A schema that differs: reported under the database's name, with its code and hint.
    const odd = folder('scan-schema');
    writeOpenCodeDatabase(odd, [], { ddl: OPENCODE_DDL.replace('version text NOT NULL,', '') });
    expect(runScan([odd]).errors).toEqual([{ file: 'opencode.db', line: null, code: 'database_schema_unknown', hint: 'opencode_db_session__version' }]);
  });

  it('every row only in -wal is read (without the -wal the last message is missing), and a -shm is not needed', async () => {
    const withWal = folder('wal');
    const made = writeOpenCodeDatabase(withWal, [exportDoc()]);
    // The generator's split: the last message and its parts were written after the checkpoint.
    expect(made.inWal.map((r: { table: string }) => r.table)).toEqual(['message', 'part', 'part', 'part']);
    const withoutWal = folder('nowal');
    copyFileSync(join(withWal, 'opencode.db'), join(withoutWal, 'opencode.db'));
    unlinkSync(join(withWal, 'opencode.db-shm'));
    const full = await indexed(withWal);
    const partial = await indexed(withoutWal);
    await full.run();
    await partial.run();
    const whole = fileRows(full.db)[0]!;
    const cut = fileRows(partial.db)[0]!;
    expect(whole.model_messages).toBe(
      JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/agents/expected.json'), 'utf8'))['opencode-invalid-call.jsonl'].modelMessages,
    );
    expect(cut.model_messages).toBe((whole.model_messages as number) - 1);
  });

  it("leaves the user's files byte-identical, creates nothing beside them, and deletes its private copy", async () => {
    const root = folder('untouched');
    writeOpenCodeDatabase(root, [exportDoc(), renamed(exportDoc(), 'b')]);
    const before = hashes(root);
    expect(Object.keys(before)).toEqual(['opencode.db', 'opencode.db-shm', 'opencode.db-wal']);
    const copies = copiesLeft();
    const { run } = await indexed(root);
    await run();
    await run();
    expect(hashes(root)).toEqual(before);
    expect(copiesLeft()).toEqual(copies);
  });

  it('a second run reads nothing unchanged; a changed session alone is read again; a deleted one is kept as gone', async () => {
    const root = folder('incremental');
    writeOpenCodeDatabase(root, [exportDoc(), renamed(exportDoc(), 'b'), renamed(exportDoc(), 'c')]);
    const { db, run } = await indexed(root);
    const first = await run();
    expect(first).toMatchObject({ filesChanged: 3, filesFailed: 0 });
    const copies = copiesLeft();
    const again = await run();
    expect(again).toMatchObject({ filesChanged: 0, filesUnchanged: 3, bytesRead: 0, filesGone: 0 });
    expect(copiesLeft()).toEqual(copies);

    // OpenCode writes: one more part in session b (time_updated unchanged, a row count changed), session c deleted.
    const writer = new Database(join(root, 'opencode.db'));
    writer.pragma('wal_autocheckpoint = 0');
    const msg = writer.prepare("SELECT id FROM message WHERE session_id = 'ses_fixture1_b' ORDER BY time_created DESC LIMIT 1").get() as { id: string };
    writer
      .prepare("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_9999b', ?, 'ses_fixture1_b', 1, 1, ?)")
      .run(msg.id, JSON.stringify({ type: 'text', text: 'more' }));
    for (const table of ['part', 'message']) writer.prepare(`DELETE FROM ${table} WHERE session_id = 'ses_fixture1_c'`).run();
    writer.prepare("DELETE FROM session WHERE id = 'ses_fixture1_c'").run();
    const third = await run();
    writer.close();
    expect(third).toMatchObject({ filesChanged: 1, filesUnchanged: 1, filesGone: 1, filesFailed: 0 });
    const gone = fileRows(db).find((f) => f.rel_path === sessionEntryName('opencode.db', 'ses_fixture1_c'))!;
    expect(gone).toMatchObject({ status: 'ok', gone: 1, findings: 1 });
  });

  it('a schema that is not the known one fails with its code, naming the table or column; the sessions read before are kept', async () => {
    const cases: [string, (ddl: string) => string, string][] = [
      [
        'renamed column',
        (d) =>
          d.replace(
            'session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);\nCREATE INDEX part',
            'session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, payload text NOT NULL);\nCREATE INDEX part',
          ),
        'opencode_db_part',
      ],
      ['missing column', (d) => d.replace('version text NOT NULL,', ''), 'opencode_db_session__version'],
      [
        'another type',
        (d) =>
          d.replace(
            'CREATE TABLE message (id text PRIMARY KEY NOT NULL, session_id text NOT NULL, time_created integer',
            'CREATE TABLE message (id text PRIMARY KEY NOT NULL, session_id text NOT NULL, time_created text',
          ),
        'opencode_db_message__time_created',
      ],
      ['missing table', (d) => d.replace(/CREATE TABLE message \([^;]*\);\nCREATE INDEX [^;]*;/, ''), 'opencode_db_message'],
    ];
    for (const [what, change, hint] of cases) {
      const ddl = change(OPENCODE_DDL);
      expect(ddl, what).not.toBe(OPENCODE_DDL);
      const root = folder('schema');
      // The rows are written through the changed schema where they still fit; none of it must be read.
      try {
        writeOpenCodeDatabase(root, [], { ddl });
      } catch {
        throw new Error(`fixture for ${what}`);
      }
      const { db, run } = await indexed(root);
      const summary = await run();
      expect(summary.failures, what).toEqual([{ root: expect.any(String), file: 'opencode.db', code: 'database_schema_unknown', line: null, hint }]);
      expect(fileRows(db), what).toEqual([
        expect.objectContaining({ rel_path: 'opencode.db', status: 'failed', error_code: 'database_schema_unknown', format_hint: hint }),
      ]);
    }

    // Read once, then OpenCode's schema changes under it: the failure is reported, the session kept (not gone, not re-read).
    const root = folder('schema-later');
    writeOpenCodeDatabase(root, [exportDoc()]);
    const { db, run } = await indexed(root);
    await run();
    const writer = new Database(join(root, 'opencode.db'));
    writer.exec('ALTER TABLE part ADD COLUMN payload text');
    writer.close();
    const after = await run();
    expect(after.failures.map((f) => [f.file, f.code, f.hint])).toEqual([['opencode.db', 'database_schema_unknown', 'opencode_db_part']]);
    expect(fileRows(db).map((f) => [f.rel_path, f.status, f.gone])).toEqual([
      ['opencode.db', 'failed', 0],
      [sessionEntryName('opencode.db', 'ses_fixture1'), 'ok', 0],
    ]);
  });

  it("a database that changes during the copy is copied again, and refused database_busy when it never holds still (both copies: the index's, off the event loop, and scan's)", async () => {
    const root = folder('busy');
    writeOpenCodeDatabase(root, [exportDoc()]);
    const wal = join(root, 'opencode.db-wal');
    const before = copiesLeft();
    for (const copy of [copyDatabase, async (path: string, options: CopyOptions) => copyDatabaseSync(path, options)]) {
      // Changed during the first copy only: the second is whole.
      let changedOnce = 0;
      const again = await copy(join(root, 'opencode.db'), {
        onChunk: (attempt) => {
          if (attempt === 1 && changedOnce++ === 0) appendFileSync(wal, Buffer.from([0]));
        },
      });
      expect(again.attempts).toBe(2);
      again.close();
      // Changed during every copy.
      let error: unknown = null;
      try {
        (await copy(join(root, 'opencode.db'), { attempts: 3, onChunk: () => appendFileSync(wal, Buffer.from([0])) })).close();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DatabaseReadError);
      expect((error as DatabaseReadError).code).toBe('database_busy');
      // Too large for the bound: refused before a byte is copied.
      await expect(copy(join(root, 'opencode.db'), { maxBytes: 1024 })).rejects.toMatchObject({ code: 'database_too_large' });
      expect(copiesLeft()).toEqual(before);
    }
  });
});
