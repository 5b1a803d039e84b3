import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { buildApp } from '../../server/app/build-app';
import { HOST, type TestApp, TOKEN, testApp } from '../support/api-app';
import { runCli } from '../support/run-cli';

// Issue 31, faults 5-9: each one's regression, and each answer a coded error, never "internal failure" or a 500.

const tmp = mkdtempSync(join(tmpdir(), 'tcf-small-faults-'));
const CANARY = 'SMALLFAULTCANARY';
let corpus: string;
let db: string;
let t: TestApp;

beforeAll(async () => {
  generateDemoCorpus({ out: join(tmp, 'corp'), seed: 5, sessions: 6, canary: CANARY });
  corpus = join(tmp, 'corp', 'projects');
  db = join(tmp, 'index.db');
  expect(runCli(['index', corpus, '--db', db]).status).toBe(2); // one damaged file, on purpose
  t = await testApp([corpus]);
});
afterAll(async () => {
  await t?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * The CLI with a bound on its time: a run that never ends fails here instead of hanging the suite.
 * The bound is generous (a loaded machine): it catches a hang, it does not measure speed.
 */
function bounded(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [join(import.meta.dirname, '../../server/cli/launch.mjs'), ...args], {
    encoding: 'utf8',
    cwd,
    timeout: 240_000,
    killSignal: 'SIGKILL',
    maxBuffer: 512 * 1024 * 1024,
  });
  expect(r.signal, `${args[0]} did not finish`).toBeNull();
  return r;
}

interface ReportFinding {
  file: string;
  source_lines: number[];
  evidence_sha256: string;
}

describe('fault 5: verify on a forged report', () => {
  let report: { findings: ReportFinding[] } & Record<string, unknown>;
  beforeAll(() => {
    const out = join(tmp, 'report.json');
    expect(runCli(['export', '--db', db, '--format', 'json', '--files', 'keep', '--out', out]).status).toBe(0);
    report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.findings.length).toBeGreaterThan(0);
  });

  it('200,000 source lines in one finding: a verdict (changed: the file has fewer lines), not internal failure (RangeError)', () => {
    const forged = { ...report, findings: [{ ...report.findings[0]!, source_lines: Array.from({ length: 200_000 }, (_, i) => i + 1) }] };
    const path = join(tmp, 'forged-lines.json');
    writeFileSync(path, JSON.stringify(forged));
    const r = bounded(['verify', path, corpus]);
    expect(r.stderr).not.toContain('internal failure');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^changed +#1 /m);
    expect(r.stdout).toContain('1 findings: 1 changed');
  }, 300_000);

  it('200,000 copies of one finding: each verified (match), the file read once', () => {
    const forged = { ...report, findings: Array.from({ length: 200_000 }, () => report.findings[0]!) };
    const path = join(tmp, 'forged-copies.json');
    writeFileSync(path, JSON.stringify(forged));
    const r = bounded(['verify', path, corpus]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('200000 findings: 200000 match');
  }, 300_000);
});

describe('fault 6: export --out to a path that cannot be written', () => {
  it.each([
    ['a missing folder', () => join(tmp, 'no-such-folder', 'r.md'), 'ENOENT'],
    ['a folder', () => tmp, 'EISDIR'],
    ['a path through a file', () => join(tmp, 'index.db', 'r.md'), 'ENOTDIR'],
  ])('%s: a coded one-line error, exit 2, nothing written', (_what, out, code) => {
    const r = bounded(['export', '--db', db, '--out', out()]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: cannot write the report to --out \\(${code}: [a-z -]+\\); nothing was written\\n$`));
    expect(r.stderr).not.toContain('internal failure');
  });
});

describe('fault 7: the same folder named twice', () => {
  it('`index corp ./corp/` is one folder: the summary and index_runs count it once, as `index corp` does', () => {
    const parent = join(tmp, 'corp');
    const once = bounded(['index', 'projects', '--db', join(tmp, 'once.db')], parent);
    const twice = bounded(['index', 'projects', './projects/', '--db', join(tmp, 'twice.db')], parent);
    const counts = (out: string) => out.split('\n').slice(0, 2).join('\n');
    expect(counts(twice.stdout)).toEqual(counts(once.stdout));
    expect(twice.stdout).toMatch(/^folders: 1; /);
    const runs = (file: string) => {
      const d = new Database(file, { readonly: true });
      try {
        return d
          .prepare('SELECT * FROM index_runs')
          .all()
          .map((r) => {
            const { started_at: _s, finished_at: _f, id: _i, duration_ms: _d, ...rest } = r as Record<string, unknown>;
            return rest;
          });
      } finally {
        d.close();
      }
    };
    expect(runs(join(tmp, 'twice.db'))).toEqual(runs(join(tmp, 'once.db')));
  });
});

describe('fault 8: numbers in URLs are plain decimal integers within their bounds', () => {
  it.each(['Infinity', '-Infinity', '1e309', '1e2', '0x10', '0b1', '0o7', '+5', ' 5', '5.0', '', '5x', '010', '1234567890123456789012'])(
    'limit=%j answers 400 invalid_request',
    async (value) => {
      const r = await t.get(`/api/findings?limit=${encodeURIComponent(value)}`);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('invalid_request');
    },
  );

  it('context=Infinity (and 1e309, 0x10) on a finding answers 400 invalid_request; plain numbers keep working', async () => {
    const { rows } = (await t.get('/api/findings?limit=10')).json as { rows: Array<{ id: string }> };
    expect(rows.length).toBeGreaterThan(0);
    for (const value of ['Infinity', '1e309', '0x10', '101', '-1']) {
      const r = await t.get(`/api/findings/${rows[0]!.id}?context=${value}`);
      expect(r.status, value).toBe(400);
      expect(r.json.error.code, value).toBe('invalid_request');
    }
    expect((await t.get(`/api/findings/${rows[0]!.id}?context=3`)).json.strip.context).toBe(3);
    expect((await t.get('/api/findings?limit=16')).status).toBe(200);
    expect((await t.get('/api/findings?limit=501')).status).toBe(400);
  });

  it('a path parameter too: PATCH /api/folders/0x1 is 400, not folder 1', async () => {
    const r = await t.app.inject({
      method: 'PATCH',
      url: '/api/folders/0x1',
      headers: { host: HOST, 'x-tcf-token': TOKEN, 'content-type': 'application/json' },
      payload: { salvage: false },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe('invalid_request');
  });
});

describe('fault 9: on a read-only index, a URL or method no route has', () => {
  it('answers 409 read_only to every state-changing method, as the README promises for any route, present or future', async () => {
    const app = await buildApp({ db: t.db, token: TOKEN, allowedHosts: [HOST], toolVersion: '9.9.9', readOnly: 'requested' });
    try {
      for (const [method, url] of [
        ['POST', '/api/not-yet'],
        ['PUT', '/api/folders'],
        ['DELETE', '/api/summary'],
        ['PATCH', '/somewhere'],
      ] as const) {
        const r = await app.inject({ method, url, headers: { host: HOST, 'x-tcf-token': TOKEN, 'content-type': 'application/json' }, payload: {} });
        expect(r.statusCode, `${method} ${url}`).toBe(409);
        expect(r.json().error.code).toBe('read_only');
      }
      // Reading an unknown URL is still a plain 404; a forged request still gets its 403 first.
      expect((await app.inject({ method: 'GET', url: '/api/not-yet', headers: { host: HOST } })).statusCode).toBe(404);
      expect((await app.inject({ method: 'POST', url: '/api/not-yet', headers: { host: HOST, 'x-tcf-token': 'wrong' } })).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });
});
