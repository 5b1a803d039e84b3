import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { indexForHook, runHook } from '../../server/cli/hook-command';
import { openDatabase } from '../../server/store/database';
import { tryAcquireIndexLock } from '../../server/store/index-lock';
import { addRoot } from '../../server/store/roots';
import { HOST, type TestApp, TOKEN, testApp } from '../support/api-app';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';
import { runCli } from '../support/run-cli';
import { sessionRows } from '../support/session-transcripts';

/**
 * Issue 27's routes, CLI and hook, on a canary corpus: every new field and answer (gone files, forget counts,
 * finding pages of gone files, the forget CLI's output, verify's answer, the hook's index writes) holds no
 * payload, no absolute path; the write routes sit behind the token and origin guards.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-histroutes-'));
const canary = newCanary();
const pathMarker = `privatefolder${canary.toLowerCase()}`;
let t: TestApp;
let base: string;
let canaryRoot: string;
let canaryFiles: string[];

beforeAll(async () => {
  base = join(tmp, pathMarker);
  mkdirSync(base);
  canaryRoot = writeCanaryTranscripts(base, canary, { canaryInNames: false });
  generateDemoCorpus({ out: join(base, 'demo'), seed: 9, sessions: 20, canary });
  t = await testApp([canaryRoot, join(base, 'demo/projects')]);
  canaryFiles = readdirSync(canaryRoot, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => join(e.parentPath, e.name));
  cpSync(canaryRoot, join(tmp, 'saved'), { recursive: true, preserveTimestamps: true });
  // Every canary transcript deleted on disk: kept as gone.
  for (const f of canaryFiles) rmSync(f);
  await indexDatabase(t.db, { analyser: 'inline' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const clean = (body: string) => {
  expect(body).not.toContain(canary);
  expect(body.toLowerCase()).not.toContain(pathMarker);
  expect(body).not.toContain(tmp);
};

const write = (method: 'POST' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = { 'x-tcf-token': TOKEN }) =>
  t.app.inject({ method, url, headers: { host: HOST, ...headers }, ...(payload ? { payload } : {}) });

describe('gone files on the API carry no payload', () => {
  it('lists the canary files as gone, and every new answer is clean', async () => {
    const gone = await t.get('/api/files?status=gone');
    expect(gone.status).toBe(200);
    expect(gone.json.rows.length).toBeGreaterThan(0);
    expect(gone.json.rows.every((r: { status: string; folder_id: number }) => r.status === 'gone' && r.folder_id === 1)).toBe(true);
    clean(gone.body);
    for (const url of ['/api/summary', '/api/files', '/api/files?status=gone&folder=1', '/api/export?format=json&files=keep', '/api/export?format=md']) {
      const r = await t.get(url);
      expect(r.status, url).toBe(200);
      clean(r.body);
    }
    expect((await t.get('/api/summary')).json.files_gone).toBe(gone.json.rows.length);
    const folders = await t.get('/api/folders');
    expect(folders.body).not.toContain(canary);
    expect(folders.json.rows[0]).toMatchObject({ files_gone: gone.json.rows.length, removed_at: null, cleanup_note: false });
  });

  it("a gone file's finding pages are clean: no rows, no command", async () => {
    const findings = (await t.get('/api/findings?folder=1&limit=500')).json.rows as Array<{ id: string }>;
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      const r = await t.get(`/api/findings/${f.id}`);
      expect(r.json.strip.status).toBe('gone');
      expect(r.json.local_command).toBeNull();
      clean(r.body);
    }
  });

  it('verify answers gone for the deleted files, printing nothing of them', async () => {
    const report = join(tmp, 'report.json');
    writeFileSync(report, (await t.get('/api/export?format=json&files=keep&folder=1')).body);
    const run = runCli(['verify', report, canaryRoot, '--db', join(t.dir, 'index.db')]);
    expect(run.stdout).toMatch(/^gone\s+#1 /m);
    expect(run.stdout).not.toMatch(/^(missing|changed)/m);
    expect(run.status).toBe(0);
    clean(run.stdout + run.stderr);
  });
});

describe('forget on the API', () => {
  it('write routes refuse a missing token and a foreign origin', async () => {
    expect((await write('POST', '/api/forget', { gone: true }, {})).statusCode).toBe(403);
    expect((await write('POST', '/api/forget', { gone: true }, { origin: 'http://evil.example', 'x-tcf-token': TOKEN })).statusCode).toBe(403);
    expect((await write('DELETE', '/api/files/1', undefined, {})).statusCode).toBe(403);
    expect((await write('DELETE', '/api/files/1', undefined, { origin: 'http://evil.example', 'x-tcf-token': TOKEN })).statusCode).toBe(403);
  });

  it('refuses a request naming nothing, a bad day and an unknown folder', async () => {
    expect((await write('POST', '/api/forget', {})).json().error.code).toBe('invalid_request');
    expect((await write('POST', '/api/forget', { before: '2026-13-45' })).statusCode).toBe(400);
    expect((await write('POST', '/api/forget', { before: 'yesterday' })).statusCode).toBe(400);
    expect((await write('POST', '/api/forget', { folder: 99 })).statusCode).toBe(404);
    expect((await write('DELETE', '/api/files/999999')).statusCode).toBe(404);
  });

  it('409 while the index lock is held; a dry run changes nothing; forgetting answers counts only', async () => {
    const goneCount = (await t.get('/api/files?status=gone')).json.rows.length;
    const lock = tryAcquireIndexLock(t.db);
    try {
      expect((await write('POST', '/api/forget', { gone: true })).statusCode).toBe(409);
    } finally {
      lock.release();
    }
    const dry = await write('POST', '/api/forget', { gone: true, dry_run: true });
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toMatchObject({ forgotten: false, files: goneCount, files_gone: goneCount });
    expect((await t.get('/api/files?status=gone')).json.rows.length).toBe(goneCount);
    const one = (await t.get('/api/files?status=gone')).json.rows[0];
    expect((await write('DELETE', `/api/files/${one.id}`)).statusCode).toBe(204);
    expect((await t.get('/api/files?status=gone')).json.rows.length).toBe(goneCount - 1);
    const done = await write('POST', '/api/forget', { gone: true });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ forgotten: true, files: goneCount - 1, files_gone: goneCount - 1 });
    expect(Object.keys(done.json()).sort()).toEqual(['assistant_messages', 'files', 'files_gone', 'findings', 'folders', 'forgotten']);
    expect((await t.get('/api/files?status=gone')).json.rows).toEqual([]);
    expect((await t.get('/api/summary')).json.files_gone).toBe(0);
  });
});

describe('the forget CLI', () => {
  it('a dry run by default, counts only; --yes acts; names nothing: exit 2', async () => {
    const dir = join(tmp, 'cli');
    generateDemoCorpus({ out: dir, seed: 11, sessions: 10, canary });
    const dbPath = join(tmp, 'cli.db');
    const db = openDatabase(dbPath);
    addRoot(db, join(dir, 'projects'));
    await indexDatabase(db, { analyser: 'inline' });
    const victim = (db.prepare("SELECT rel_path FROM files WHERE status = 'ok' AND findings > 0 LIMIT 1").pluck().get() as string) ?? '';
    db.close();
    rmSync(join(dir, 'projects', victim));
    expect(runCli(['index', join(dir, 'projects'), '--db', dbPath]).stdout).toMatch(/1 gone from disk and kept/);
    const none = runCli(['forget', '--db', dbPath]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/name what to forget/);
    expect(runCli(['forget', '--before', '2026-02-30x', '--db', dbPath]).status).toBe(2);
    const dry = runCli(['forget', '--gone', '--db', dbPath]);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/^would forget 1 file \(1 no longer on disk\), [1-9]\d* findings?, \d+ assistant messages?; nothing was changed/);
    expect(runCli(['forget', '--gone', '--db', dbPath]).stdout).toBe(dry.stdout);
    const byFile = runCli(['forget', '--file', victim, '--folder', join(dir, 'projects'), '--db', dbPath]);
    expect(byFile.stdout).toBe(dry.stdout);
    const yes = runCli(['forget', '--gone', '--yes', '--db', dbPath]);
    expect(yes.status).toBe(0);
    expect(yes.stdout).toMatch(/^forgot 1 file \(1 no longer on disk\)/);
    expect(runCli(['forget', '--gone', '--db', dbPath]).stdout).toMatch(/^would forget 0 files/);
    expect(runCli(['forget', '--folder', '7', '--db', dbPath]).status).toBe(2);
    for (const r of [dry, yes, byFile]) clean(r.stdout + r.stderr);
  });
});

describe('hook --index', () => {
  it('indexes the session under an added folder, incrementally; skips when the lock is held or the file is outside', async () => {
    const dir = join(tmp, 'hook/projects/-p');
    mkdirSync(dir, { recursive: true });
    const dbPath = join(tmp, 'hook.db');
    const db = openDatabase(dbPath);
    addRoot(db, join(tmp, 'hook/projects'));
    const path = join(dir, 'session.jsonl');
    const rows = sessionRows('said_nothing', canary);
    writeFileSync(path, `${rows.slice(0, 4).join('\n')}\n`);
    expect(await indexForHook(dbPath, path)).toBe('indexed');
    expect(await indexForHook(dbPath, path)).toBe('unchanged');
    writeFileSync(path, `${rows.join('\n')}\n`);
    const lock = tryAcquireIndexLock(db);
    expect(await indexForHook(dbPath, path)).toBe('busy');
    lock.release();
    const out = await runHook('stop', { port: 9, stdin: async () => JSON.stringify({ transcript_path: path }), index: { dbPath } });
    clean(out);
    expect(db.prepare('SELECT size FROM files').pluck().get()).toBe(readFileSync(path).length);
    const outside = join(tmp, 'elsewhere.jsonl');
    writeFileSync(outside, `${rows.join('\n')}\n`);
    expect(await indexForHook(dbPath, outside)).toBe('outside');
    expect(await indexForHook(join(tmp, 'no-such.db'), path)).toBe('no_index');
    expect(db.prepare('SELECT count(*) FROM files').pluck().get()).toBe(1);
    // The database holds no payload.
    db.close();
    const bytes = readFileSync(dbPath);
    expect(bytes.includes(Buffer.from(canary))).toBe(false);
  });

  it('install --print --index prints the hooks with --index', () => {
    const r = runCli(['hook', 'install', '--print', '--index']);
    expect(r.status).toBe(0);
    const settings = JSON.parse(r.stdout) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    expect(settings.hooks.Stop![0]!.hooks[0]!.command).toMatch(/ hook stop --index$/);
    expect(settings.hooks.SubagentStop![0]!.hooks[0]!.command).toMatch(/ hook subagent-stop --index$/);
  });
});
