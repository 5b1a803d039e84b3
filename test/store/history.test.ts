import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { buildApp } from '../../server/app/build-app';
import { indexDatabase } from '../../server/app/index-database';
import type { App } from '../../server/http/types';
import { indexFilesOfRoot } from '../../server/live/index-files';
import { type Db, openDatabase } from '../../server/store/database';
import { forgetFiles, forgetPreview } from '../../server/store/forget';
import { tryAcquireIndexLock } from '../../server/store/index-lock';
import { prepareIndexStatements } from '../../server/store/index-statements';
import { addRoot, removeRoot } from '../../server/store/roots';
import { HOST, TOKEN } from '../support/api-app';
import { cellTotals, dumpIndex } from '../support/db-dump';
import { sessionText } from '../support/session-transcripts';

/**
 * Issue 27: the index keeps what a deleted transcript showed. A corpus is indexed, half its files deleted and
 * indexed again (by an index run, and by the folder watcher's per-file path): every rate answer stays the same,
 * the deleted files are listed as gone, `forget --gone` leaves what a fresh index of the rest holds.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-history-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.jsonl')) out.push(relative(dir, join(d, e.name)).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

async function appOn(db: Db): Promise<App> {
  return buildApp({ db, token: TOKEN, allowedHosts: [HOST], demo: false, toolVersion: '9.9.9', analyser: 'inline' });
}

async function get(app: App, url: string): Promise<unknown> {
  const r = await app.inject({ url, headers: { host: HOST } });
  expect(r.statusCode, url).toBe(200);
  return r.json();
}

const RATE_URLS = ['/api/versions', '/api/timeline', '/api/timeline?bucket=week', '/api/regressions', '/api/models', '/api/version-models'];

async function rateAnswers(db: Db): Promise<Record<string, unknown>> {
  const app = await appOn(db);
  try {
    const out: Record<string, unknown> = {};
    for (const url of RATE_URLS) out[url] = await get(app, url);
    return out;
  } finally {
    await app.close();
  }
}

/** Every GET worth comparing, the findings and their sessions included; run times and index-run records left out. */
async function everyAnswer(db: Db): Promise<Map<string, unknown>> {
  const app = await appOn(db);
  try {
    const out = new Map<string, unknown>();
    const urls = [
      ...RATE_URLS,
      '/api/summary',
      '/api/files?status=problems',
      '/api/files?status=gone',
      '/api/diagnostics',
      '/api/session-ends?dimension=version',
      '/api/session-ends?dimension=day',
      '/api/compare?a=2026-05-01..2026-05-20&b=2026-05-21..2026-07-01',
      '/api/findings?limit=500',
    ];
    for (const url of urls) out.set(url, await get(app, url));
    // A file's row id and read time are the database's own (a fresh index numbers and reads afresh); the rest must be equal.
    for (const url of ['/api/files?status=problems', '/api/files?status=gone']) {
      out.set(url, { rows: (out.get(url) as { rows: Array<{ id: number; indexed_at: string }> }).rows.map(({ id: _id, indexed_at: _at, ...r }) => r) });
    }
    const folders = (await get(app, '/api/folders')) as { rows: Array<Record<string, unknown>> };
    out.set(
      '/api/folders',
      folders.rows.map(({ last_indexed_at: _l, added_at: _a, ...r }) => r),
    );
    const report = (await get(app, '/api/export?format=json&files=keep')) as { generated_at?: string };
    out.set('/api/export', { ...report, generated_at: '' });
    const findings = (out.get('/api/findings?limit=500') as { rows: Array<{ id: string }> }).rows;
    for (const f of findings) {
      const detail = (await get(app, `/api/findings/${f.id}`)) as { session_hash: string | null };
      out.set(`/api/findings/${f.id}`, detail);
      if (detail.session_hash) out.set(`/api/sessions/${detail.session_hash}`, await get(app, `/api/sessions/${detail.session_hash}`));
    }
    return out;
  } finally {
    await app.close();
  }
}

function expectSameAnswers(got: Map<string, unknown>, want: Map<string, unknown>): void {
  expect(want.size).toBeGreaterThan(20);
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [url, body] of want) expect(got.get(url), url).toEqual(body);
}

const goneFiles = (db: Db) => (db.prepare('SELECT rel_path FROM files WHERE gone_ms IS NOT NULL ORDER BY rel_path').pluck().all() as string[]).sort();

describe('history that outlives the deletion of transcripts', () => {
  const corpus = join(tmp, 'corpus/projects');
  const saved = join(tmp, 'saved');
  let all: string[];
  let deleted: string[];
  /** The deleted files that were read whole: kept as gone (a failed file holds nothing and is removed). */
  let gone: string[];
  let kept: string[];
  let db: Db;
  let before: Record<string, unknown>;
  let beforeDump: ReturnType<typeof dumpIndex>;

  beforeAll(async () => {
    generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 27, sessions: 50, canary: 'HISTORYCANARY' });
    all = listFiles(corpus);
    deleted = all.filter((_, i) => i % 2 === 0);
    kept = all.filter((_, i) => i % 2 === 1);
    cpSync(corpus, saved, { recursive: true, preserveTimestamps: true });
    db = openDatabase(join(tmp, 'history.db'));
    addRoot(db, corpus);
    await indexDatabase(db, { analyser: 'inline' });
    const ok = new Set(db.prepare("SELECT rel_path FROM files WHERE status = 'ok'").pluck().all() as string[]);
    gone = deleted.filter((f) => ok.has(f));
    before = await rateAnswers(db);
    beforeDump = dumpIndex(db);
  }, 120_000);
  afterAll(() => db?.close());

  it('starts from real content: findings in both halves', () => {
    expect(all.length).toBeGreaterThan(40);
    // Failed files among the deleted ones too: they are removed, not kept.
    expect(gone.length).toBeLessThan(deleted.length);
    expect(gone.length).toBeGreaterThan(20);
    const n = (sql: string) => db.prepare(sql).pluck().get() as number;
    expect(n('SELECT count(*) FROM findings')).toBeGreaterThan(10);
    const inDeleted = db.prepare('SELECT count(*) FROM findings fi JOIN files f ON f.id = fi.file_id WHERE f.rel_path IN (SELECT value FROM json_each(?))');
    expect(inDeleted.pluck().get(JSON.stringify(deleted))).toBeGreaterThan(0);
    expect(goneFiles(db)).toEqual([]);
  });

  it('an index run after half the files were deleted keeps every rate answer and lists exactly the deleted files as gone', async () => {
    for (const f of deleted) rmSync(join(corpus, f));
    const summary = await indexDatabase(db, { analyser: 'inline' });
    expect(summary.filesGone).toBe(gone.length);
    expect(summary.filesRemoved).toBe(deleted.length - gone.length);
    expect(summary.filesChanged).toBe(0);
    expect(await rateAnswers(db)).toEqual(before);
    // Every row but the failed files' is still there.
    const failedRow = (r: unknown) => (r as unknown[])[4] === 'failed' && deleted.includes((r as unknown[])[1] as string);
    expect(dumpIndex(db)).toEqual({ ...beforeDump, files: beforeDump.files.filter((r) => !failedRow(r)) });
    const app = await appOn(db);
    try {
      const listed = (await get(app, '/api/files?status=gone')) as { rows: Array<{ file: string; status: string; gone_since: string; first_day: string }> };
      expect(listed.rows.map((r) => r.file).sort()).toEqual(gone);
      for (const r of listed.rows) {
        expect(r.status).toBe('gone');
        expect(r.gone_since).toMatch(/^\d{4}-\d{2}-\d{2}T/);
        expect(r.first_day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      // A gone file is not a problem: the problems list holds the failed files still on disk only.
      const problems = ((await get(app, '/api/files')) as { rows: Array<{ file: string; status: string }> }).rows;
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.filter((r) => !kept.includes(r.file))).toEqual([]);
      const summaryAnswer = (await get(app, '/api/summary')) as { files_ok: number; files_gone: number };
      expect(summaryAnswer).toMatchObject({ files_gone: gone.length });
      expect(summaryAnswer.files_ok).toBe(all.length - (deleted.length - gone.length) - problems.length);
      const folder = ((await get(app, '/api/folders')) as { rows: Array<{ files_gone: number; gone_oldest_day: string | null }> }).rows[0]!;
      expect(folder.files_gone).toBe(gone.length);
      expect(folder.gone_oldest_day).toBe(listed.rows.map((r) => r.first_day).sort()[0]);
      const report = (await get(app, '/api/export?format=json&files=keep')) as { scanned: { files_gone: number; findings_from_gone_files: number } };
      expect(report.scanned.files_gone).toBe(gone.length);
      const fromGone = db
        .prepare('SELECT count(*) FROM findings fi JOIN files f ON f.id = fi.file_id WHERE fi.counted = 1 AND f.gone_ms IS NOT NULL')
        .pluck()
        .get();
      expect(report.scanned.findings_from_gone_files).toBe(fromGone);
      expect(report.scanned.findings_from_gone_files).toBeGreaterThan(0);
      const md = await app.inject({ url: '/api/export?format=md', headers: { host: HOST } });
      expect(md.body).toContain(`${gone.length} of these transcripts are no longer on disk`);
    } finally {
      await app.close();
    }
    // A second run changes nothing: gone files stay gone, not counted again.
    const again = await indexDatabase(db, { analyser: 'inline' });
    expect(again).toMatchObject({ filesGone: 0, filesRemoved: 0, filesChanged: 0, filesBack: 0 });
  });

  it("a gone file's finding page says so and hides the command; verify answers gone", async () => {
    const app = await appOn(db);
    try {
      const findings = (await get(app, '/api/findings?limit=500')) as { rows: Array<{ id: string; file: string }> };
      const ofGone = findings.rows.find((f) => deleted.includes(f.file))!;
      const ofKept = findings.rows.find((f) => kept.includes(f.file))!;
      const gone = (await get(app, `/api/findings/${ofGone.id}`)) as {
        strip: { status: string; message: string; rows: unknown[] };
        local_command: unknown;
        gone_since: string;
      };
      expect(gone.strip.status).toBe('gone');
      expect(gone.strip.rows).toEqual([]);
      expect(gone.strip.message).toMatch(/^the transcript was deleted on disk after \d{4}-\d{2}-\d{2};/);
      expect(gone.local_command).toBeNull();
      expect(gone.gone_since).toMatch(/^\d{4}-/);
      const present = (await get(app, `/api/findings/${ofKept.id}`)) as { strip: { status: string }; local_command: unknown; gone_since: unknown };
      expect(present.strip.status).toBe('ok');
      expect(present.local_command).toMatch(/^sed -n /);
      expect(present.gone_since).toBeNull();

      const { verifyReport } = await import('../../server/cli/verify-command');
      for (const files of ['keep', 'pseudonymize']) {
        const report = await app.inject({ url: `/api/export?format=json&files=${files}`, headers: { host: HOST } });
        const results = verifyReport(report.body, [corpus], db);
        const byStatus = (s: string) => results.filter((r) => r.status === s).length;
        expect(byStatus('gone'), files).toBeGreaterThan(0);
        expect(byStatus('missing') + byStatus('changed'), files).toBe(0);
        expect(byStatus('match'), files).toBeGreaterThan(0);
        // Without the index that holds them, the same findings are missing, as before.
        expect(results.length).toBe(byStatus('gone') + byStatus('match'));
        if (files === 'keep') expect(verifyReport(report.body, [corpus], null).filter((r) => r.status === 'missing').length).toBe(byStatus('gone'));
      }
    } finally {
      await app.close();
    }
  });

  it('a file deleted and restored unchanged is not read again (even with a new mtime); one restored changed is', async () => {
    const [a, b] = gone as [string, string];
    cpSync(join(saved, a), join(corpus, a));
    const later = new Date(Date.now() + 5000);
    utimesSync(join(corpus, a), later, later);
    cpSync(join(saved, b), join(corpus, b), { preserveTimestamps: true });
    writeFileSync(join(corpus, b), readFileSync(join(corpus, b), 'utf8').split('\n').slice(0, 3).join('\n') + '\n');
    const summary = await indexDatabase(db, { analyser: 'inline' });
    expect(summary).toMatchObject({ filesBack: 1, filesChanged: 1, filesGone: 0 });
    expect(goneFiles(db)).not.toContain(a);
    expect(goneFiles(db)).not.toContain(b);
    const row = db.prepare('SELECT mtime_ms FROM files WHERE rel_path = ?').get(a) as { mtime_ms: number };
    expect(row.mtime_ms).toBe(statSync(join(corpus, a)).mtimeMs);
    // Back to the state of the test before: both deleted again.
    rmSync(join(corpus, a));
    rmSync(join(corpus, b));
    await indexDatabase(db, { analyser: 'inline' });
    expect(goneFiles(db)).toEqual(gone);
  });

  it('the folder watcher keeps gone files too, and restores an unchanged one without reading it', async () => {
    const wdb = openDatabase(join(tmp, 'watch.db'));
    const wcorpus = join(tmp, 'watch/projects');
    try {
      cpSync(saved, wcorpus, { recursive: true, preserveTimestamps: true });
      const root = addRoot(wdb, wcorpus);
      await indexDatabase(wdb, { analyser: 'inline' });
      for (const f of deleted) rmSync(join(wcorpus, f));
      const update = await indexFilesOfRoot(wdb, root, deleted);
      expect(update).toMatchObject({ filesRemoved: deleted.length, filesChanged: 0, findingsRemoved: 0 });
      expect(await rateAnswers(wdb)).toEqual(before);
      expect(goneFiles(wdb)).toEqual(gone);
      const first = gone[0]!;
      cpSync(join(saved, first), join(wcorpus, first), { preserveTimestamps: true });
      const back = await indexFilesOfRoot(wdb, root, [first]);
      expect(back).toMatchObject({ filesChanged: 0, filesRemoved: 0 });
      expect(goneFiles(wdb)).toEqual(gone.slice(1));
      // A run after the watcher agrees: nothing to read, nothing newly gone.
      expect(await indexDatabase(wdb, { analyser: 'inline' })).toMatchObject({ filesChanged: 0, filesGone: 0, filesBack: 0 });
    } finally {
      wdb.close();
    }
  });

  it('forget --gone leaves an index equal, on every GET, to a fresh index of the remaining files', async () => {
    const preview = forgetPreview(db, { gone: true });
    expect(preview).toMatchObject({ files: gone.length, files_gone: gone.length });
    expect(goneFiles(db)).toEqual(gone);
    const done = await forgetFiles(db, { gone: true });
    expect(done).toEqual(preview);
    expect(goneFiles(db)).toEqual([]);
    const fresh = openDatabase(join(tmp, 'fresh.db'));
    try {
      addRoot(fresh, corpus);
      await indexDatabase(fresh, { analyser: 'inline' });
      expect(dumpIndex(db)).toEqual(dumpIndex(fresh));
      expectSameAnswers(await everyAnswer(db), await everyAnswer(fresh));
    } finally {
      fresh.close();
    }
  }, 120_000);
});

describe('which copy counts, and a new session at an old path', () => {
  it('copies of one message in a gone file and a present one count once', async () => {
    const dir = join(tmp, 'resumed/projects/-p');
    mkdirSync(dir, { recursive: true });
    const text = sessionText('said_nothing', 'RESUMECANARY', { idPrefix: 'r' });
    writeFileSync(join(dir, 'first.jsonl'), text);
    // A resumed session: the new file starts with a copy of the first one's rows.
    writeFileSync(join(dir, 'second.jsonl'), text);
    const db = openDatabase(join(tmp, 'resumed.db'));
    try {
      addRoot(db, join(tmp, 'resumed/projects'));
      await indexDatabase(db, { analyser: 'inline' });
      const totals = cellTotals(db);
      expect(totals.reduce((n, c) => n + c.assistant_messages, 0)).toBeGreaterThan(0);
      rmSync(join(dir, 'first.jsonl'));
      await indexDatabase(db, { analyser: 'inline' });
      expect(goneFiles(db)).toEqual(['-p/first.jsonl']);
      expect(cellTotals(db)).toEqual(totals);
      expect(db.prepare('SELECT count(*) FROM findings WHERE counted = 1').pluck().get()).toBe(
        db.prepare("SELECT count(*) FROM findings fi JOIN files f ON f.id = fi.file_id WHERE f.rel_path = '-p/first.jsonl'").pluck().get(),
      );
    } finally {
      db.close();
    }
  });

  it("another session written at a gone file's path replaces its rows (a different fingerprint means another file)", async () => {
    const dir = join(tmp, 'reused/projects/-p');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'same-name.jsonl');
    writeFileSync(path, sessionText('said_nothing', 'OLDSESSION', { idPrefix: 'old' }));
    const db = openDatabase(join(tmp, 'reused.db'));
    try {
      addRoot(db, join(tmp, 'reused/projects'));
      await indexDatabase(db, { analyser: 'inline' });
      const oldHash = db.prepare('SELECT lower(hex(session_hash)) FROM files').pluck().get();
      rmSync(path);
      await indexDatabase(db, { analyser: 'inline' });
      expect(goneFiles(db)).toEqual(['-p/same-name.jsonl']);
      writeFileSync(path, sessionText('max_tokens', 'NEWSESSION', { idPrefix: 'new' }));
      const summary = await indexDatabase(db, { analyser: 'inline' });
      expect(summary).toMatchObject({ filesChanged: 1, filesBack: 0 });
      expect(goneFiles(db)).toEqual([]);
      expect(db.prepare('SELECT count(*) FROM files').pluck().get()).toBe(1);
      expect(db.prepare('SELECT lower(hex(session_hash)) FROM files').pluck().get()).not.toBe(oldHash);
      // The same as a fresh index of the new file alone.
      const fresh = openDatabase(join(tmp, 'reused-fresh.db'));
      addRoot(fresh, join(tmp, 'reused/projects'));
      await indexDatabase(fresh, { analyser: 'inline' });
      expect(dumpIndex(db)).toEqual(dumpIndex(fresh));
      fresh.close();
    } finally {
      db.close();
    }
  });
});

describe('removing a folder keeps its history unless asked to forget it', () => {
  it('keeps the files as gone, no longer indexed; adding the folder again brings it back; forget drops it', async () => {
    const corpus = join(tmp, 'removed/projects');
    generateDemoCorpus({ out: join(tmp, 'removed'), seed: 3, sessions: 12, canary: 'REMOVEDCANARY' });
    const db = openDatabase(join(tmp, 'removed.db'));
    try {
      const root = addRoot(db, corpus);
      await indexDatabase(db, { analyser: 'inline' });
      const rates = await rateAnswers(db);
      const files = db.prepare("SELECT count(*) FROM files WHERE status = 'ok'").pluck().get() as number;
      const failed = db.prepare("SELECT count(*) FROM files WHERE status <> 'ok'").pluck().get() as number;
      expect(removeRoot(db, root.id, { forget: false })).toBe(true);
      expect(prepareIndexStatements(db).allRoots.all()).toEqual([]);
      expect(db.prepare('SELECT count(*) FROM files WHERE gone_ms IS NOT NULL').pluck().get()).toBe(files);
      expect(db.prepare('SELECT count(*) FROM files WHERE gone_ms IS NULL').pluck().get()).toBe(0);
      expect(await rateAnswers(db)).toEqual(rates);
      // An index run no longer reads it, and nothing changes.
      expect(await indexDatabase(db, { analyser: 'inline' })).toMatchObject({ roots: 0, filesSeen: 0 });
      // A folder inside it may not be added while its history is kept (each file is counted under one folder).
      expect(() => addRoot(db, join(corpus, readdirSync(corpus)[0]!))).toThrow(/overlap|inside/);
      // Added again: the same folder, its files found back unchanged.
      expect(addRoot(db, corpus).id).toBe(root.id);
      expect(await indexDatabase(db, { analyser: 'inline' })).toMatchObject({ filesChanged: failed, filesBack: files });
      expect(removeRoot(db, root.id, { forget: false })).toBe(true);
      expect(removeRoot(db, root.id, { forget: false })).toBe(false);
      // Forgetting the removed folder's files drops the folder too, once empty.
      expect(await forgetFiles(db, { folderId: root.id })).toMatchObject({ files, files_gone: files, folders: 1 });
      expect(db.prepare('SELECT count(*) FROM roots').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM root_cells').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('forget refuses at once while an index run holds the lock (the server), and forget --before takes only older files', async () => {
    const corpus = join(tmp, 'before/projects');
    generateDemoCorpus({ out: join(tmp, 'before'), seed: 5, sessions: 12, canary: 'BEFORECANARY' });
    const db = openDatabase(join(tmp, 'before.db'));
    try {
      addRoot(db, corpus);
      await indexDatabase(db, { analyser: 'inline' });
      const lock = tryAcquireIndexLock(db);
      await expect(forgetFiles(db, { gone: true })).rejects.toMatchObject({ code: 'index_running' });
      lock.release();
      const lastDays = db
        .prepare("SELECT strftime('%Y-%m-%d', (first_row_ms + row_span_ms) / 1000, 'unixepoch') FROM files WHERE first_row_ms IS NOT NULL ORDER BY 1")
        .pluck()
        .all() as string[];
      const cut = lastDays[Math.floor(lastDays.length / 2)]!;
      const older = lastDays.filter((d) => d < cut).length;
      expect(older).toBeGreaterThan(0);
      expect(forgetPreview(db, { before: cut }).files).toBe(older);
      expect(forgetPreview(db, { before: cut, gone: true }).files).toBe(0);
      expect((await forgetFiles(db, { before: cut })).files).toBe(older);
      expect(forgetPreview(db, { before: cut }).files).toBe(0);
    } finally {
      db.close();
    }
  });
});
