import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServeError, startServer } from '../../server/app/serve';
import { HOST, type TestApp, TOKEN, testApp } from '../support/api-app';
import { fixturesRoot } from '../support/detector-fixtures';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-sec-'));
let t: TestApp;
beforeAll(async () => {
  t = await testApp([join(fixturesRoot, 'detectors/missing_tool_use_block')]);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

const inject = (opts: { method?: 'GET' | 'POST' | 'DELETE'; url: string; headers?: Record<string, string>; payload?: string | object }) =>
  t.app.inject({
    method: opts.method ?? 'GET',
    url: opts.url,
    headers: { host: HOST, ...opts.headers },
    ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
  });

describe('requests a foreign page could forge are refused', () => {
  it.each([['evil.example:4319'], ['127.0.0.1:9999'], ['attacker.test'], ['']])('Host %j gets 403 on GET and POST (DNS rebinding)', async (host) => {
    for (const method of ['GET', 'POST'] as const) {
      const r = await t.app.inject({ method, url: '/api/summary', headers: { host, 'x-tcf-token': TOKEN } });
      expect(r.statusCode).toBe(403);
      expect(r.json().error.code).toBe('forbidden_host');
    }
  });

  it('accepts localhost and the bound address', async () => {
    expect((await t.app.inject({ url: '/api/health', headers: { host: 'localhost:4319' } })).statusCode).toBe(200);
    expect((await inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('refuses a cross-origin POST, even with the token', async () => {
    const r = await inject({ method: 'POST', url: '/api/index-runs', headers: { origin: 'http://evil.example', 'x-tcf-token': TOKEN }, payload: {} });
    expect(r.statusCode).toBe(403);
    expect(r.json().error.code).toBe('forbidden_origin');
  });

  it('refuses a cross-site form post', async () => {
    const r = await inject({
      method: 'POST',
      url: '/api/folders',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: 'path=/',
    });
    expect(r.statusCode).toBe(403);
  });

  it('refuses a POST or DELETE with no Origin and no (or a wrong) token', async () => {
    expect((await inject({ method: 'POST', url: '/api/index-runs', payload: {} })).json().error.code).toBe('missing_token');
    expect((await inject({ method: 'POST', url: '/api/index-runs', headers: { 'x-tcf-token': TOKEN + 'x' }, payload: {} })).statusCode).toBe(403);
    expect((await inject({ method: 'DELETE', url: '/api/folders/1' })).statusCode).toBe(403);
  });

  it('accepts a same-origin POST from the page without the token', async () => {
    const r = await inject({ method: 'POST', url: '/api/folders', headers: { origin: `http://${HOST}` }, payload: { path: join(fixturesRoot, 'errors') } });
    expect(r.statusCode).toBe(201);
  });

  it('sends no CORS headers and a strict Content-Security-Policy', async () => {
    const r = await inject({ url: '/api/summary', headers: { origin: 'http://evil.example' } });
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses an oversized body with 413', async () => {
    const r = await inject({
      method: 'POST',
      url: '/api/folders',
      headers: { 'x-tcf-token': TOKEN, 'content-type': 'application/json' },
      payload: JSON.stringify({ path: 'x'.repeat(40_000) }),
    });
    expect(r.statusCode).toBe(413);
    expect(r.json().error).toMatchObject({ status_code: 413, code: 'payload_too_large' });
  });

  it('limits the rate of scan starts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await inject({ method: 'POST', url: '/api/index-runs', headers: { 'x-tcf-token': TOKEN }, payload: {} })).statusCode);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(0, 20).every((s) => s === 202 || s === 409)).toBe(true);
    while ((await inject({ url: '/api/index-runs/current' })).json().state === 'running') await new Promise((r) => setTimeout(r, 20));
  });
});

describe('root paths are validated and never echoed', () => {
  const add = (path: string) => inject({ method: 'POST', url: '/api/folders', headers: { 'x-tcf-token': TOKEN }, payload: { path } });

  it.each([
    [
      'a symbolic link to a folder',
      'symlink',
      () => {
        const p = join(tmp, 'link-SECRETNAME');
        symlinkSync(fixturesRoot, p);
        return p;
      },
    ],
    [
      'a file',
      'not_directory',
      () => {
        const p = join(tmp, 'file-SECRETNAME.jsonl');
        writeFileSync(p, '{}\n');
        return p;
      },
    ],
    ['a missing folder', 'folder_not_found', () => join(tmp, 'missing-SECRETNAME')],
  ])('%s is refused with %s', async (_label, code, make) => {
    const r = await add(make());
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe(code);
    expect(r.body).not.toContain('SECRETNAME');
  });

  it('an extra property in the body is refused', async () => {
    mkdirSync(join(tmp, 'ok'), { recursive: true });
    const r = await inject({ method: 'POST', url: '/api/folders', headers: { 'x-tcf-token': TOKEN }, payload: { path: join(tmp, 'ok'), extra: 1 } });
    expect(r.statusCode).toBe(400);
  });
});

describe('binding', () => {
  it('refuses a non-loopback address without --allow-remote', async () => {
    await expect(startServer({ host: '0.0.0.0', port: 0, db: join(tmp, 'x.db'), webRoot: null, log: () => {} })).rejects.toBeInstanceOf(ServeError);
  });

  it('binds 127.0.0.1 by default and answers only to its own Host', async () => {
    const lines: string[] = [];
    const server = await startServer({ port: 0, db: join(tmp, 'bind.db'), webRoot: null, log: (l) => lines.push(l) });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
      expect(server.app.server.address()).toMatchObject({ address: '127.0.0.1' });
      expect((await fetch(`${server.url}api/health`)).status).toBe(200);
      expect(lines.join('\n')).toContain(server.token);
      const forged = await new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: server.port, path: '/api/health', headers: { host: 'rebound.example' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(forged).toBe(403);
    } finally {
      await server.close();
    }
  });
});

describe('demo mode', () => {
  it('serves the bundled demo corpus only, even from a demo database another checkout filled', async () => {
    const { openDatabase } = await import('../../server/store/database');
    const { addRoot } = await import('../../server/store/roots');
    const dbPath = join(tmp, 'demo.db');
    const db = openDatabase(dbPath);
    addRoot(db, join(fixturesRoot, 'errors'), 'left over');
    db.close();
    const server = await startServer({ port: 0, db: dbPath, demo: true, webRoot: null, log: () => {} });
    try {
      const roots = (await (await fetch(`${server.url}api/folders`)).json()) as { rows: Array<{ label: string }> };
      expect(roots.rows.map((r) => r.label)).toEqual(['demo (generated)']);
      const health = (await (await fetch(`${server.url}api/health`)).json()) as { demo: boolean };
      expect(health.demo).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('binding elsewhere', () => {
  it('needs --allow-remote, then prints a warning and answers to that address', async () => {
    const lines: string[] = [];
    const server = await startServer({ host: '0.0.0.0', allowRemote: true, port: 0, db: join(tmp, 'remote.db'), webRoot: null, log: (l) => lines.push(l) });
    try {
      expect(lines[0]).toMatch(/^WARNING: listening on 0\.0\.0\.0/);
      const status = await new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: server.port, path: '/api/health', headers: { host: `0.0.0.0:${server.port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
