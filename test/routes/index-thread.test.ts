import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app/build-app';
import { type Db, openDatabase } from '../../server/store/database';
import { tinyAssistantRow } from '../support/tiny-transcript';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-index-thread-'));
const HOST = '127.0.0.1:4319';
const headers = { host: HOST, 'x-tcf-token': 't' };

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function corpus(name: string, files: number): string {
  const dir = join(tmp, name);
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `-home-user-src-project-${i % 7}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `session-${i}.jsonl`), `${tinyAssistantRow(`msg_${name}_${i}`)}\n`);
  }
  return dir;
}

/**
 * Records every statement that can write run on this connection (better-sqlite3's `readonly` is
 * false for INSERT, UPDATE, DELETE, BEGIN, PRAGMA that sets…), every `exec` and every transaction,
 * from the moment `recording` is set.
 */
function spyOnWrites(db: Db): { writes: string[]; start(): void } {
  const writes: string[] = [];
  let recording = false;
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (statement.readonly) return statement;
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      const original = (statement[method] as (...args: unknown[]) => unknown).bind(statement);
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        if (recording) writes.push(source.trim().split(/\s+/).slice(0, 4).join(' '));
        return original(...args);
      };
    }
    return statement;
  }) as typeof db.prepare;
  const exec = db.exec.bind(db);
  db.exec = ((source: string) => {
    if (recording) writes.push(`exec ${source.slice(0, 40)}`);
    return exec(source);
  }) as typeof db.exec;
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn);
    const recorded =
      (run: (...args: unknown[]) => unknown) =>
      (...args: unknown[]) => {
        if (recording) writes.push('transaction');
        return run(...args);
      };
    return Object.assign(recorded(tx), { immediate: recorded(tx.immediate), deferred: recorded(tx.deferred), exclusive: recorded(tx.exclusive) });
  }) as typeof db.transaction;
  return {
    writes,
    start: () => {
      recording = true;
    },
  };
}

describe("the server's index run happens off the event loop's thread (issue 31, fault 4)", () => {
  it('writes nothing on the connection that answers requests, and leaves the WAL checkpointed and truncated', async () => {
    const path = join(tmp, 'index.db');
    const db = openDatabase(path);
    const spy = spyOnWrites(db);
    // The spy is in place before the app prepares anything, as the runner's store would on this connection.
    const app = await buildApp({ db, token: 't', allowedHosts: [HOST] });
    try {
      const folder = corpus('tiny', 300);
      const added = await app.inject({ method: 'POST', url: '/api/folders', headers, payload: { path: folder } });
      expect(added.statusCode).toBe(201);
      // Adding a folder writes here (one row, not part of a run); from now on nothing may.
      spy.start();
      const started = await app.inject({ method: 'POST', url: '/api/index-runs', headers, payload: { folder_id: added.json().id } });
      expect(started.statusCode).toBe(202);
      expect(started.json().state).toBe('running');
      // A second run while it goes: refused at once, as before.
      const second = await app.inject({ method: 'POST', url: '/api/index-runs', headers, payload: {} });
      expect(second.statusCode).toBe(409);
      let state = (await app.inject({ method: 'GET', url: '/api/index-runs/current', headers })).json();
      const deadline = Date.now() + 60_000;
      while (state.state === 'running' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        // Requests are answered meanwhile, reading the same database.
        expect((await app.inject({ method: 'GET', url: '/api/health', headers })).statusCode).toBe(200);
        state = (await app.inject({ method: 'GET', url: '/api/index-runs/current', headers })).json();
      }
      expect(state).toMatchObject({ state: 'done', files_total: 300, files_done: 300, files_failed: 0 });
      expect(spy.writes).toEqual([]);
      // What the thread wrote is what this connection reads.
      expect(db.prepare<[], { n: number }>("SELECT count(*) AS n FROM files WHERE status = 'ok'").get()!.n).toBe(300);
      expect(db.prepare<[], { n: number }>("SELECT count(*) AS n FROM index_runs WHERE status = 'done'").get()!.n).toBe(1);
      expect((await app.inject({ method: 'GET', url: '/api/summary', headers })).json().assistant_messages).toBe(300);
      // Merged into the database and truncated at the end of the run (not left to grow).
      expect(statSync(`${path}-wal`).size).toBe(0);
    } finally {
      await app.close();
      db.close();
    }
  }, 120_000);

  it('stops a run still going when the server closes, and a later server runs again (the lock is not left behind)', async () => {
    const path = join(tmp, 'closed.db');
    const db = openDatabase(path);
    const app = await buildApp({ db, token: 't', allowedHosts: [HOST] });
    const folder = corpus('closing', 600);
    const added = await app.inject({ method: 'POST', url: '/api/folders', headers, payload: { path: folder } });
    expect((await app.inject({ method: 'POST', url: '/api/index-runs', headers, payload: {} })).statusCode).toBe(202);
    await app.close();
    const again = await buildApp({ db, token: 't', allowedHosts: [HOST] });
    try {
      const started = await again.inject({ method: 'POST', url: '/api/index-runs', headers, payload: { folder_id: added.json().id } });
      expect(started.statusCode).toBe(202);
      let state = started.json();
      const deadline = Date.now() + 60_000;
      while (state.state === 'running' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        state = (await again.inject({ method: 'GET', url: '/api/index-runs/current', headers })).json();
      }
      expect(state).toMatchObject({ state: 'done', files_total: expect.any(Number) });
      expect(db.prepare<[], { n: number }>("SELECT count(*) AS n FROM files WHERE status = 'ok'").get()!.n).toBe(600);
    } finally {
      await again.close();
      db.close();
    }
  }, 120_000);
});
