import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { startServer } from '../../server/app/serve';
import { runCli } from '../support/run-cli';
import { finishedIndex } from './support/finished-index';
import { READ_ONLY_FOLDER_MODE, readerBlocked, serveCommandAsReader, startServeAsReader } from './support/read-only-server';

// `serve` on an index it cannot write, run as a user the operating system stops from writing
// (support/read-only-server.ts: `nobody` on a root-owned 0755 folder when the suite runs as root).
const tmp = mkdtempSync(join(tmpdir(), 'tcf-roserve-'));
chmodSync(tmp, 0o755); // mkdtemp makes it 0700: the reader must be able to enter it
afterAll(() => {
  for (const entry of readdirSync(tmp)) chmodSync(join(tmp, entry), 0o755);
  rmSync(tmp, { recursive: true, force: true });
});

let corpus: string;
let extra: string;

beforeAll(() => {
  const out = join(tmp, 'corpus');
  generateDemoCorpus({ out, seed: 7, sessions: 12, canary: 'ROSERVECANARY' });
  corpus = join(out, 'projects');
  generateDemoCorpus({ out: join(tmp, 'extra'), seed: 8, sessions: 3, canary: 'ROSERVECANARY' });
  extra = join(tmp, 'extra', 'projects');
  for (const dir of [out, join(tmp, 'extra')]) chmodSync(dir, 0o755);
});

const makeIndex = (name: string) => finishedIndex(tmp, name, corpus);

/** Everything that would show a write: the folder's entries and mtime, the file's mtime and bytes. */
function stateOf(dir: string, db: string) {
  return {
    entries: readdirSync(dir).sort(),
    folderMtime: statSync(dir).mtimeMs,
    fileMtime: statSync(db).mtimeMs,
    sha256: createHash('sha256').update(readFileSync(db)).digest('hex'),
  };
}

interface Answer {
  status: number;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read any JSON body
  json: any;
}

function call(port: number, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          host: `127.0.0.1:${port}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const serveAsReader = (args: string[]) => startServeAsReader(tmp, args);

/** `serve` as the reader when it must refuse to start: its exit code and output. */
async function refusedAsReader(args: string[], env: NodeJS.ProcessEnv = {}) {
  const { child } = await serveCommandAsReader(tmp, args, env);
  const status = await child.exit;
  return { status, stdout: child.stdout(), stderr: child.stderr() };
}

const COMPARED = [
  '/api/summary',
  '/api/timeline',
  '/api/versions',
  '/api/models',
  '/api/findings?limit=100',
  '/api/regressions',
  '/api/files',
  '/api/folders',
  '/api/diagnostics',
  '/api/session-ends',
  '/api/export?format=json&files=pseudonymize',
];

/** A valid body for each state-changing route (a route added later without one here fails the writable half of the test). */
const BODIES: Record<string, (folderId: number) => unknown> = {
  'POST /api/folders': () => ({ path: extra }),
  'PATCH /api/folders/:id': () => ({ salvage: true }),
  'POST /api/index-runs': (id) => ({ folder_id: id }),
  'POST /api/forget': () => ({ gone: true, dry_run: true }),
};

describe.skipIf(readerBlocked !== null)('serve on an index this user cannot write', () => {
  it('starts read-only, answers every GET as a writable server on a copy does, refuses every state change with read_only, and writes nothing', async () => {
    const ro = makeIndex('ro-folder');
    const copy = join(tmp, 'copy');
    mkdirSync(copy);
    copyFileSync(ro.db, join(copy, 'index.db'));
    chmodSync(ro.dir, READ_ONLY_FOLDER_MODE); // root owns it: nobody cannot write it
    const before = stateOf(ro.dir, ro.db);

    const writable = await startServer({ db: join(copy, 'index.db'), port: 0, webRoot: null, log: () => {}, watch: false });
    const server = await serveAsReader(['--db', ro.db]);
    try {
      expect(server.child.stdout()).toContain(
        "Read-only index (this user cannot write the database's folder): index runs and folder changes are off, and folders are not watched.",
      );
      expect(server.child.stdout()).not.toContain('Watching');
      const health = await call(server.port, 'GET', '/api/health');
      expect(health.json).toMatchObject({ status: 'ok', read_only: true, read_only_reason: 'folder_not_writable' });
      expect((await call(writable.port, 'GET', '/api/health')).json).toMatchObject({ read_only: false, read_only_reason: null });

      for (const path of COMPARED) {
        const [a, b] = [await call(server.port, 'GET', path), await call(writable.port, 'GET', path)];
        expect(a.status, path).toBe(200);
        expect(a.body, path).not.toContain('ROSERVECANARY');
        if (path.startsWith('/api/export')) {
          // Stamped with the time it was made; everything else is the same document.
          expect(a.json.generated_at).toEqual(expect.any(String));
          a.json.generated_at = b.json.generated_at;
        }
        expect(a.json, path).toEqual(b.json);
      }
      const folders = (await call(server.port, 'GET', '/api/folders')).json.rows as Array<{ id: number }>;
      expect(folders).toHaveLength(1);
      const folderId = folders[0]!.id;

      // Every route that is not a GET, as the app lists them.
      const changing = (writable.app as unknown as { routeList: string[] }).routeList.filter((r) => !r.startsWith('GET ') && !r.startsWith('OPTIONS '));
      expect(changing.sort()).toEqual(
        expect.arrayContaining(['DELETE /api/folders/:id', 'PATCH /api/folders/:id', 'POST /api/folders', 'POST /api/index-runs']),
      );
      for (const route of changing) {
        const [method, pattern] = route.split(' ') as [string, string];
        const path = pattern.replace(':id', String(folderId));
        const body = BODIES[route]?.(folderId);
        const refused = await call(server.port, method, path, { body, headers: { 'x-tcf-token': server.token } });
        expect(refused.status, route).toBe(409);
        expect(refused.json.error, route).toEqual({
          status_code: 409,
          code: 'read_only',
          message: "this dashboard opened the index read-only (this user cannot write the database's folder): index runs and folder changes are off",
        });
        // Refused before its body is read: a malformed one gets the same answer.
        const malformed = await call(server.port, method, path, { body: { nonsense: true }, headers: { 'x-tcf-token': server.token } });
        expect(malformed.json.error.code, route).toBe('read_only');
        // The guards against forged requests come first.
        expect((await call(server.port, method, path, { body, headers: { 'x-tcf-token': 'wrong' } })).json.error.code, route).toBe('missing_token');
        expect((await call(server.port, method, path, { body, headers: { host: 'evil.example', 'x-tcf-token': server.token } })).status, route).toBe(403);
      }
      // A method or a URL no route has is refused the same way ("any route, present or future").
      expect((await call(server.port, 'PUT', '/api/folders', { body: {}, headers: { 'x-tcf-token': server.token } })).json.error.code).toBe('read_only');
      expect((await call(server.port, 'POST', '/api/not-yet', { body: {}, headers: { 'x-tcf-token': server.token } })).json.error.code).toBe('read_only');
      // Nothing changed: the same folders, the same index run (none), and nothing on disk.
      expect((await call(server.port, 'GET', '/api/folders')).json).toEqual((await call(writable.port, 'GET', '/api/folders')).json);
      expect((await call(server.port, 'GET', '/api/index-runs/current')).json.state).toBe('idle');
      expect(stateOf(ro.dir, ro.db)).toEqual(before);

      // The same requests are accepted by the writable server: the refusal is the read-only guard's, not a bad request.
      const host = { 'x-tcf-token': writable.token };
      const order = [...changing].sort((a, b) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')));
      for (const route of order) {
        const [method, pattern] = route.split(' ') as [string, string];
        // The run the POST started goes in its own thread (started, then ended), which takes longer than expect.poll's default second on a loaded machine.
        if (method === 'DELETE')
          await expect.poll(async () => (await call(writable.port, 'GET', '/api/index-runs/current')).json.state, { timeout: 60_000 }).not.toBe('running');
        const answer = await call(writable.port, method, pattern.replace(':id', String(folderId)), { body: BODIES[route]?.(folderId), headers: host });
        expect(answer.status, `${route}: ${answer.body}`).toBeLessThan(300);
      }
    } finally {
      server.child.proc.kill('SIGTERM');
      await writable.close();
    }
    // It stops cleanly, and leaves the folder exactly as it was.
    expect(await server.child.exit).toBe(0);
    expect(server.child.stderr()).toBe('');
    // What it printed names no path and no payload.
    expect(server.child.stdout()).not.toContain(tmp);
    expect(server.child.stdout()).not.toContain('ROSERVECANARY');
    expect(stateOf(ro.dir, ro.db)).toEqual(before);
  });

  it('follows its owner: refuses to answer while the owner writes the snapshot it reads, then reads the new state', async () => {
    const { dir, db } = makeIndex('ro-owner-writes');
    chmodSync(dir, READ_ONLY_FOLDER_MODE);
    const server = await serveAsReader(['--db', db]);
    const get = (path: string) => call(server.port, 'GET', path);
    try {
      const summary = (await get('/api/summary')).json;
      expect((await get('/api/folders')).json.rows.map((r: { label: string }) => r.label)).toEqual(['projects']);
      // The owner (who can write the folder) changes it, and has not merged the change yet: a -wal holds it.
      chmodSync(dir, 0o755);
      const owner = new Database(db);
      owner.pragma('wal_autocheckpoint = 0');
      owner.exec("UPDATE roots SET label = 'renamed'");
      expect(statSync(`${db}-wal`).size).toBeGreaterThan(0);
      for (const path of ['/api/summary', '/api/folders', '/api/findings?limit=5']) {
        const refused = await get(path);
        expect(refused.status, path).toBe(503);
        expect(refused.json.error.code, path).toBe('index_changed');
      }
      // The page can still load and say what it is.
      expect((await get('/api/health')).json).toMatchObject({ read_only: true });
      // Done: the change is merged into the file, and read.
      owner.close();
      expect(readdirSync(dir)).toEqual(['index.db']);
      expect((await get('/api/folders')).json.rows.map((r: { label: string }) => r.label)).toEqual(['renamed']);
      // An index run by the owner meanwhile: the new folder and figures are read, never a cached answer of the old file.
      expect([0, 2]).toContain(runCli(['index', extra, '--db', db]).status);
      chmodSync(dir, READ_ONLY_FOLDER_MODE);
      expect((await get('/api/folders')).json.rows).toHaveLength(2);
      const after = await get('/api/summary');
      expect(after.status).toBe(200);
      expect(after.json.files_ok).toBeGreaterThan(summary.files_ok);
    } finally {
      server.child.proc.kill('SIGTERM');
    }
    expect(await server.child.exit).toBe(0);
    expect(server.child.stderr()).toBe('');
    expect(readdirSync(dir)).toEqual(['index.db']);
  });

  it('a database file this user cannot write, in a folder it can: read-only, and says why', async () => {
    const { dir, db } = makeIndex('ro-file');
    chmodSync(dir, 0o777);
    chmodSync(db, 0o444);
    const server = await serveAsReader(['--db', db, '--no-watch']);
    try {
      expect(server.child.stdout()).toContain('Read-only index (this user cannot write the database file)');
      expect((await call(server.port, 'GET', '/api/health')).json).toMatchObject({ read_only: true, read_only_reason: 'file_not_writable' });
      expect((await call(server.port, 'GET', '/api/summary')).status).toBe(200);
      const refused = await call(server.port, 'POST', '/api/index-runs', { body: {}, headers: { 'x-tcf-token': server.token } });
      expect(refused.json.error.code).toBe('read_only');
    } finally {
      server.child.proc.kill('SIGTERM');
    }
    expect(await server.child.exit).toBe(0);
    expect(statSync(db).mode & 0o777).toBe(0o444);
  });

  it('what would write is refused before anything is opened, in one line: folders to index, the demo, a missing index', async () => {
    const { dir, db } = makeIndex('ro-refusals');
    chmodSync(dir, READ_ONLY_FOLDER_MODE);
    const before = stateOf(dir, db);
    const withDirs = await refusedAsReader(['--db', db, extra]);
    expect(withDirs.status).toBe(2);
    expect(withDirs.stderr).toBe(
      "error: folders to index were given, but the index is read-only (this user cannot write the database's folder): serve it without folders to browse it, or index them with write access\n",
    );
    const missing = await refusedAsReader(['--db', join(dir, 'other.db')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^error: no index database there, and a read-only one cannot be made \(this user cannot write the database's folder\)/);
    // The demo database is XDG_DATA_HOME/tool-call-forensics/demo.db: its folder does not exist, and
    // the nearest one that does cannot be written.
    const xdg = join(tmp, 'xdg');
    mkdirSync(xdg);
    chmodSync(xdg, READ_ONLY_FOLDER_MODE);
    const demo = await refusedAsReader(['--demo'], { XDG_DATA_HOME: xdg, TCF_DB: '' });
    expect(demo.status).toBe(2);
    expect(demo.stderr).toMatch(/^error: the demo database cannot be written \(this user cannot write the database's folder\)/);
    expect(readdirSync(xdg)).toEqual([]);
    expect(stateOf(dir, db)).toEqual(before);
  });

  it('unmerged changes in a -wal it cannot merge are refused with what to do, never served stale', async () => {
    const { db } = makeIndex('live');
    const writer = new Database(db);
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec("INSERT INTO meta (key, value) VALUES ('roserve_probe', '1')");
    const copy = join(tmp, 'live-copy');
    mkdirSync(copy);
    copyFileSync(db, join(copy, 'index.db'));
    copyFileSync(`${db}-wal`, join(copy, 'index.db-wal'));
    writer.close();
    chmodSync(copy, READ_ONLY_FOLDER_MODE);
    const run = await refusedAsReader(['--db', join(copy, 'index.db')]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('holds changes not yet merged');
    expect(run.stderr).not.toContain(tmp);
    expect(readdirSync(copy).sort()).toEqual(['index.db', 'index.db-wal']);
  });
});

describe('serve --read-only on a database this user could write', () => {
  it('refuses every change, sees what a CLI index commits meanwhile, and leaves nothing behind', async () => {
    const { dir, db } = makeIndex('rw-flag');
    const before = stateOf(dir, db);
    const lines: string[] = [];
    let server = await startServer({ db, port: 0, webRoot: null, log: (l) => lines.push(l), readOnly: true });
    try {
      expect(lines).toContain('Read-only index (started with --read-only): index runs and folder changes are off, and folders are not watched.');
      expect(server.watcher).toBeNull();
      expect((await call(server.port, 'GET', '/api/health')).json).toMatchObject({ read_only: true, read_only_reason: 'requested' });
      const refused = await call(server.port, 'POST', '/api/folders', { body: { path: extra }, headers: { 'x-tcf-token': server.token } });
      expect(refused.status).toBe(409);
      expect(refused.json.error.message).toBe('this dashboard opened the index read-only (started with --read-only): index runs and folder changes are off');
      expect((await call(server.port, 'GET', '/api/folders')).json.rows).toHaveLength(1);
    } finally {
      await server.close();
    }
    // Nothing created, nothing written: the same entries, the same bytes, the same mtime.
    const after = stateOf(dir, db);
    expect({ ...after, folderMtime: 0 }).toEqual({ ...before, folderMtime: 0 });

    // Not a frozen snapshot: what another process commits is shown (the response cache follows it too).
    server = await startServer({ db, port: 0, webRoot: null, log: () => {}, readOnly: true });
    try {
      const summary = (await call(server.port, 'GET', '/api/summary')).json;
      expect([0, 2]).toContain(runCli(['index', extra, '--db', db]).status);
      expect((await call(server.port, 'GET', '/api/folders')).json.rows).toHaveLength(2);
      expect((await call(server.port, 'GET', '/api/summary')).json.files_ok).toBeGreaterThan(summary.files_ok);
    } finally {
      await server.close();
    }
    expect(readdirSync(dir)).toEqual(['index.db']);
  });
});
