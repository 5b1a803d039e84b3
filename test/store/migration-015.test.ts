import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { buildApp } from '../../server/app/build-app';
import { indexDatabase } from '../../server/app/index-database';
import { projectRoot } from '../../server/build/project-root';
import type { App } from '../../server/http/types';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { SESSION_ENDS } from '../../shared/session-ends';
import { HOST, TOKEN } from '../support/api-app';
import { dumpIndex } from '../support/db-dump';
import { sessionText } from '../support/session-transcripts';

/**
 * Migration 015 (compact file rows) on an existing user's database: a database at schema 014 holding
 * what the 014 writer stored for a real index (made from a fresh index of the same corpus, written
 * back in the 014 layout: 64-hex fingerprints, ISO timestamps, session-end text columns, 'transcript',
 * '{}'), upgraded by openDatabase, must answer every API request exactly as a fresh index does, and
 * read no file again.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-mig015-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const migrationsDir = join(projectRoot, 'server/store/migrations');
const corpus = join(tmp, 'corpus/projects');

function writeCorpus(): void {
  generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 15, sessions: 60, canary: 'MIG015CANARY' });
  // A stream capture of each kind the capture fixtures hold, and a damaged transcript (failed, with a line).
  const captures = join(corpus, 'captures');
  mkdirSync(captures, { recursive: true });
  const fixtures = join(projectRoot, 'fixtures/detectors/malformed_tool_use_exhausted');
  for (const name of readdirSync(fixtures).filter((n) => n.endsWith('.ndjson'))) copyFileSync(join(fixtures, name), join(captures, name));
  // One session of every way a session can end (the demo corpus's all end alike).
  const ends = join(corpus, '-home-dev-ends');
  mkdirSync(ends, { recursive: true });
  for (const end of SESSION_ENDS) writeFileSync(join(ends, `${end}.jsonl`), sessionText(end, 'MIG015CANARY', { idPrefix: end }));
  writeFileSync(join(corpus, 'damaged.jsonl'), '{"type":"user","message":{"role":"user","content":"x"}}\n{not json\n{"type":"user"}\n');
}

/** A schema-014 database holding the rows `fresh` holds, as the 014 writer laid them out. */
function databaseAt014(path: string, fresh: Db): void {
  const db = new Database(path);
  for (const name of readdirSync(migrationsDir).sort()) {
    if (!/^\d{3}_/.test(name) || Number(name.slice(0, 3)) > 14) continue;
    db.exec(readFileSync(join(migrationsDir, name), 'utf8'));
  }
  db.pragma('user_version = 14');
  const copy = (table: string, sql = `SELECT * FROM ${table}`) => {
    const rows = fresh.prepare(sql).all() as Array<Record<string, unknown>>;
    if (rows.length === 0) return 0;
    const columns = Object.keys(rows[0]!);
    const insert = db.prepare(`INSERT OR REPLACE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
    for (const r of rows) insert.run(r);
    return rows.length;
  };
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  db.transaction(() => {
    // The columns roots had at 014 (017 added removed_ms).
    copy('roots', 'SELECT id, path, label, added_at, last_scan_at, salvage FROM roots');
    // Only the cells messages and findings use: the cells of session ends are the migration's to make.
    copy('cells', 'SELECT id, day, version, model, sidechain FROM cells WHERE id IN (SELECT cell_id FROM messages UNION SELECT cell_id FROM findings)');
    const files = fresh
      .prepare(
        `SELECT f.id, f.root_id, f.rel_path, f.size, f.mtime_ms, lower(hex(f.fingerprint)) AS fingerprint, f.status, f.error_code,
                f.error_line, f.first_row_ms, f.first_row_ms + f.row_span_ms AS last_row_ms, lower(hex(f.session_hash)) AS session_hash,
                f.sidechain, f.assistant_messages, f.findings, f.indexed_ms, coalesce(f.format, 'transcript') AS format, f.salvaged,
                f.damage, f.terminal_reason, k.name AS session_end, nullif(c.version, '') AS version, nullif(c.model, '') AS model,
                nullif(c.day, '') AS day
         FROM files f LEFT JOIN session_end_kinds k ON k.id = f.session_end_kind LEFT JOIN cells c ON c.id = f.session_end_cell`,
      )
      .all() as Array<Record<string, string | number | null>>;
    const insertFile = db.prepare(
      `INSERT INTO files (id, root_id, rel_path, size, mtime_ms, fingerprint, status, error_code, error_line, first_row_at, last_row_at,
                          session_hash, sidechain, assistant_messages, findings, indexed_at, format, salvaged, damage, terminal_reason,
                          session_end, session_end_version, session_end_model, session_end_day)
       VALUES (@id, @root_id, @rel_path, @size, @mtime_ms, @fingerprint, @status, @error_code, @error_line, @first_row_at, @last_row_at,
               @session_hash, @sidechain, @assistant_messages, @findings, @indexed_at, @format, @salvaged, @damage, @terminal_reason,
               @session_end, @version, @model, @day)`,
    );
    for (const f of files) {
      const { first_row_ms, last_row_ms, indexed_ms, ...rest } = f;
      insertFile.run({
        ...rest,
        // The 014 fingerprint: all 256 bits, of which the first 128 are today's.
        fingerprint: f.fingerprint === '' ? '' : `${f.fingerprint}${'5a'.repeat(16)}`,
        session_hash: f.session_hash === '' ? null : f.session_hash,
        first_row_at: iso(first_row_ms as number | null),
        last_row_at: iso(last_row_ms as number | null),
        indexed_at: iso(indexed_ms as number),
      });
    }
    copy(
      'file_diagnostics',
      `SELECT file_id, version, text_rows, tool_use_rows, coalesce(unknown_row_types, '{}') AS unknown_row_types,
              coalesce(unknown_block_types, '{}') AS unknown_block_types, compaction_splits, calls_open_at_end,
              coalesce(rejected_tool_input, '{}') AS rejected_tool_input, coalesce(unknown_system_subtypes, '{}') AS unknown_system_subtypes
       FROM file_diagnostics`,
    );
    for (const table of ['messages', 'findings', 'root_cells', 'index_runs', 'meta']) copy(table);
  })();
  db.close();
}

async function appOn(db: Db): Promise<App> {
  return buildApp({ db, token: TOKEN, allowedHosts: [HOST], demo: false, toolVersion: '9.9.9', analyser: 'inline' });
}

async function get(app: App, url: string): Promise<unknown> {
  const r = await app.inject({ url, headers: { host: HOST } });
  expect(r.statusCode, url).toBe(200);
  return r.json();
}

/** Every read of the API worth comparing: lists, each finding, each session, each dimension of session ends. */
async function apiAnswers(app: App): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const urls = [
    '/api/summary',
    '/api/folders',
    '/api/files?status=problems',
    '/api/diagnostics',
    '/api/versions',
    '/api/models',
    '/api/regressions',
    '/api/timeline',
    '/api/session-ends?dimension=version',
    '/api/session-ends?dimension=model',
    '/api/session-ends?dimension=day',
    '/api/findings?limit=500',
  ];
  for (const url of urls) out.set(url, await get(app, url));
  // The evidence report (what `verify` checks), every file mode; only its generation time differs.
  for (const files of ['keep', 'keep-session', 'pseudonymize', 'omit']) {
    const report = (await get(app, `/api/export?format=json&files=${files}`)) as { generated_at?: string };
    expect(report.generated_at).toMatch(/^\d{4}-/);
    out.set(`/api/export?files=${files}`, { ...report, generated_at: '' });
  }
  const findings = (out.get('/api/findings?limit=500') as { rows: Array<{ id: string }> }).rows;
  const sessions = new Set<string>();
  for (const f of findings) {
    const detail = (await get(app, `/api/findings/${f.id}`)) as { session_hash: string | null };
    out.set(`/api/findings/${f.id}`, detail);
    if (detail.session_hash) sessions.add(detail.session_hash);
  }
  for (const s of sessions) out.set(`/api/sessions/${s}`, await get(app, `/api/sessions/${s}`));
  return out;
}

/** The files migration 023 asks to read again (its UPDATE's condition). */
const REREAD_023 = "status = 'ok' OR (status = 'failed' AND (error_code = 'unknown_format' OR (error_code = 'malformed_json' AND error_line = 1)))";

describe('migration 015 on an existing index', () => {
  let fresh: Db;
  let upgraded: Db;
  // Migration 018 (issue 33) clears the fingerprint of every transcript read whole, so that one run after the
  // upgrade gives their messages an effort and their turns an ending; 015's own work is checked after that run.
  let firstRun: Awaited<ReturnType<typeof indexDatabase>>;
  let transcriptsOk: number;
  beforeAll(async () => {
    writeCorpus();
    fresh = openDatabase(join(tmp, 'fresh.db'));
    addRoot(fresh, corpus);
    await indexDatabase(fresh, { analyser: 'inline' });
    databaseAt014(join(tmp, 'old.db'), fresh);
    upgraded = openDatabase(join(tmp, 'old.db'));
    // Migration 023 (issue 34) reads every file read again (captures too, each gets its agent), and failed files a new reader may read.
    transcriptsOk = upgraded.prepare(`SELECT count(*) FROM files WHERE ${REREAD_023}`).pluck().get() as number;
    firstRun = await indexDatabase(upgraded, { analyser: 'inline' });
  }, 120_000);
  afterAll(() => {
    fresh?.close();
    upgraded?.close();
  });

  it('starts from real content: findings, sessions, session ends, captures, a failed file and diagnostics', () => {
    const n = (db: Db, sql: string) => db.prepare(sql).pluck().get() as number;
    expect(n(fresh, 'SELECT count(*) FROM findings')).toBeGreaterThan(10);
    expect(n(fresh, 'SELECT count(DISTINCT session_hash) FROM files')).toBeGreaterThan(10);
    expect(n(fresh, "SELECT count(*) FROM files WHERE format = 'stream-json'")).toBeGreaterThan(1);
    expect(n(fresh, "SELECT count(*) FROM files WHERE status = 'failed'")).toBeGreaterThan(0);
    expect(n(fresh, 'SELECT count(DISTINCT session_end_kind) FROM files')).toBeGreaterThan(4);
    expect(n(fresh, 'SELECT count(*) FROM file_diagnostics')).toBeGreaterThan(10);
    expect(n(fresh, 'SELECT count(*) FROM files WHERE row_span_ms > 0')).toBeGreaterThan(10);
  });

  it('upgrades to the current schema with the same rows as a fresh index', () => {
    expect(upgraded.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(15);
    expect(dumpIndex(upgraded)).toEqual(dumpIndex(fresh));
    expect(upgraded.prepare('SELECT * FROM file_diagnostics ORDER BY file_id, version').all()).toEqual(
      fresh.prepare('SELECT * FROM file_diagnostics ORDER BY file_id, version').all(),
    );
    // Files migrations 018 and 023 did not ask to read again keep their time of indexing.
    const kept = `SELECT id, indexed_ms FROM files WHERE NOT (${REREAD_023}) ORDER BY id`;
    expect(upgraded.prepare(kept).all()).toEqual(fresh.prepare(kept).all());
  });

  it('answers every API request exactly as a fresh index of the same corpus', async () => {
    const [a, b] = [await appOn(upgraded), await appOn(fresh)];
    try {
      const [got, want] = [await apiAnswers(a), await apiAnswers(b)];
      expect(want.size).toBeGreaterThan(30);
      expect([...got.keys()]).toEqual([...want.keys()]);
      // The one re-read after migration 018 moved the folder's time of indexing, nothing else.
      // Migration 023's re-read of failed files moved their time of indexing too.
      const timeless = (body: unknown) => JSON.parse(JSON.stringify(body, (k, v) => (k === 'last_indexed_at' || k === 'indexed_at' ? 'time' : v)));
      for (const [url, body] of want) expect(timeless(got.get(url)), url).toEqual(timeless(body));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps the fingerprints, so after the one re-read of transcripts migration 018 asks for, the next run reads nothing again', async () => {
    expect(firstRun.filesChanged).toBe(transcriptsOk);
    const summary = await indexDatabase(upgraded, { analyser: 'inline' });
    expect(summary.filesChanged).toBe(0);
    expect(summary.filesUnchanged).toBeGreaterThan(60);
    expect(dumpIndex(upgraded)).toEqual(dumpIndex(fresh));
  });

  it('reads a file again when its old row held a value the compact columns cannot hold exactly', async () => {
    const path = join(tmp, 'odd.db');
    databaseAt014(path, fresh);
    const raw = new Database(path);
    const ok = raw.prepare("SELECT rel_path FROM files WHERE status = 'ok' AND last_row_at IS NOT NULL ORDER BY rel_path").pluck().all() as string[];
    // An older build's raw timestamp text, and a session hash of another shape.
    raw.prepare("UPDATE files SET last_row_at = 'yesterday at noon' WHERE rel_path = ?").run(ok[0]);
    raw.prepare("UPDATE files SET session_hash = 'XYZ' WHERE rel_path = ?").run(ok[1]);
    raw.close();
    const db = openDatabase(path);
    try {
      // Migrations 018 and 023 clear fingerprints as well: the two odd rows are among those read again.
      const reread = db.prepare("SELECT rel_path FROM files WHERE fingerprint = X'' ORDER BY rel_path").pluck().all();
      expect(reread).toContain(ok[0]);
      expect(reread).toContain(ok[1]);
      const summary = await indexDatabase(db, { analyser: 'inline' });
      expect(summary.filesChanged).toBe(reread.length);
      expect(dumpIndex(db)).toEqual(dumpIndex(fresh));
    } finally {
      db.close();
    }
  });

  it('names every session end of the shared vocabulary, so none is stored as NULL', () => {
    const names = upgraded.prepare('SELECT name FROM session_end_kinds ORDER BY name').pluck().all();
    expect(names).toEqual([...SESSION_ENDS].sort());
  });
});
