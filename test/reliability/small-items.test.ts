import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { buildApp } from '../../server/app/build-app';
import { indexDatabase } from '../../server/app/index-database';
import { formatScanTable, runScan } from '../../server/cli/scan-command';
import { formatVerifyResult, verifyReport } from '../../server/cli/verify-command';
import { buildEvidenceReport, redactionOf } from '../../server/query/build-evidence-report';
import { markdownName } from '../../server/query/evidence-markdown';
import { DatabaseError, describeDatabaseError, openDatabase } from '../../server/store/database';
import { addRoot, RootError } from '../../server/store/roots';
import { safeTimestamp } from '../../shared/metadata-patterns';
import { printable } from '../../shared/printable';
import { fixturesRoot } from '../support/detector-fixtures';
import { runCli } from '../support/run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-small-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = (name = 'case') => {
  const dir = join(tmp, `${name}-${++n}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

const assistant = (id: string, timestamp: string, model = 'claude-opus-4-6') =>
  JSON.stringify({ type: 'assistant', timestamp, message: { id, role: 'assistant', model, content: [{ type: 'text', text: 'x' }], stop_reason: 'end_turn' } });

function problemOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof RootError ? error.problem : `other: ${String(error)}`;
  }
}

describe('roots', () => {
  it('refuses a root inside or around another, and the filesystem root', () => {
    const db = openDatabase(':memory:');
    const parent = fresh('roots');
    mkdirSync(join(parent, 'child', 'grandchild'), { recursive: true });
    mkdirSync(join(`${parent}-sibling`), { recursive: true });
    addRoot(db, join(parent, 'child'));
    expect(problemOf(() => addRoot(db, join(parent, 'child', 'grandchild')))).toBe('overlapping_root');
    expect(problemOf(() => addRoot(db, parent))).toBe('overlapping_root');
    expect(problemOf(() => addRoot(db, '/'))).toBe('filesystem_root');
    // A name that only starts like another root's is not inside it.
    expect(problemOf(() => addRoot(db, `${parent}-sibling`))).toBeNull();
    // The same folder again is the same root, not an overlap.
    expect(addRoot(db, join(parent, 'child')).id).toBe(1);
    db.close();
  });

  it('refuses a root reached through a symbolically linked parent, and stores real paths', () => {
    const db = openDatabase(':memory:');
    const real = fresh('real');
    mkdirSync(join(real, 'inner'));
    symlinkSync(real, `${real}-link`);
    expect(problemOf(() => addRoot(db, join(`${real}-link`, 'inner')))).toBe('symlink_parent');
    expect(addRoot(db, join(real, 'inner', '..', 'inner')).path).toBe(join(real, 'inner'));
    db.close();
  });
});

describe('order and time', () => {
  let corpus: string;
  beforeAll(() => {
    corpus = join(fresh('order'), 'projects');
    generateDemoCorpus({ out: join(corpus, '..'), seed: 11, sessions: 40, canary: 'ORDERCANARY' });
  });

  it('two clean indexes with worker threads give every finding the same id, so every list has the same order', async () => {
    const dumps: unknown[] = [];
    for (const name of ['one', 'two']) {
      const db = openDatabase(join(corpus, '..', `${name}.db`));
      addRoot(db, corpus);
      await indexDatabase(db, { analyser: 'workers' });
      dumps.push(
        db
          .prepare('SELECT fi.id, f.id AS file_id, f.rel_path, fi.code, fi.first_line FROM findings fi JOIN files f ON f.id = fi.file_id ORDER BY fi.id')
          .raw()
          .all(),
      );
      db.close();
    }
    expect((dumps[0] as unknown[]).length).toBeGreaterThan(10);
    expect(dumps[1]).toEqual(dumps[0]);
  }, 120_000);

  it('"the earliest copy is counted" compares times, not their text', async () => {
    const dir = fresh('earliest');
    // 10:00+02:00 is 08:00Z: earlier than 09:00Z, though its text sorts later.
    writeFileSync(join(dir, 'a.jsonl'), `${assistant('m1', '2026-05-01T10:00:00+02:00', 'model-offset')}\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${assistant('m1', '2026-05-01T09:00:00Z', 'model-utc')}\n`);
    const db = openDatabase(join(dir, 'i.db'));
    addRoot(db, dir);
    await indexDatabase(db, { analyser: 'inline' });
    const counted = db.prepare('SELECT c.model, rc.assistant_messages AS n FROM root_cells rc JOIN cells c ON c.id = rc.cell_id').all();
    // Stored as UTC milliseconds (migration 015): the copy is chosen by comparing numbers.
    const times = (db.prepare('SELECT rel_path, first_row_ms FROM files ORDER BY rel_path').raw().all() as Array<[string, number]>).map(([file, ms]) => [
      file,
      new Date(ms).toISOString(),
    ]);
    db.close();
    expect(counted).toEqual([{ model: 'model-offset', n: 1 }]);
    expect(times).toEqual([
      ['a.jsonl', '2026-05-01T08:00:00.000Z'],
      ['b.jsonl', '2026-05-01T09:00:00.000Z'],
    ]);
  });

  it('only ISO-8601 date-times in range leave the scanner as timestamps', () => {
    expect(safeTimestamp('2026-05-01T09:00:00Z')).toBe('2026-05-01T09:00:00.000Z');
    expect(safeTimestamp('2026-05-01T09:00:00.123456+05:30')).toBe('2026-05-01T03:30:00.123Z');
    for (const bad of ['2026-05-01', '2026-05-01T09:00:00Z secret', 'x'.repeat(2_000_000), '1970-01-01T00:00:00Z', '9999-01-01T00:00:00Z', 42, null]) {
      expect(safeTimestamp(bad)).toBeNull();
    }
  });
});

describe('printing what others wrote', () => {
  it('escapes control characters in scan output, so a file name cannot forge a row', () => {
    const dir = fresh('names');
    const forged = 'a\nz.jsonl    1  invalid_utf8\x1b[2J.jsonl';
    writeFileSync(join(dir, forged), '{"type":"summary"\n');
    // Wide enough that the name is not cut in the middle.
    const text = formatScanTable(runScan([dir]), { width: 200, colour: false });
    expect(text).not.toContain('\x1b');
    // The display name escapes the newline (file-name-bytes.ts); the terminal escaping then doubles its backslash.
    expect(text).toContain('a\\\\x0az.jsonl');
    // One error row, however the name reads.
    // (the summary's "refused by code" line names the code too, and is not a row)
    expect(text.split('\n').filter((l) => l.includes('malformed_json') && !l.startsWith('refused by code'))).toHaveLength(1);
    expect(printable('tab\there\\')).toBe('tab\\x09here\\\\');
  });

  it('escapes names in Markdown cells (newlines, pipes, backticks)', () => {
    expect(markdownName('a\n| b | `c`')).toBe('`` a\\x0a\\| b \\| `c` ``');
    expect(markdownName('plain.jsonl')).toBe('`plain.jsonl`');
  });

  it('verify reports bad line numbers as unverifiable instead of crashing, and prints only what it checked', async () => {
    const dir = fresh('verify');
    cpSync(join(fixturesRoot, 'detectors/missing_tool_use_block'), dir, { recursive: true });
    const db = openDatabase(join(dir, '..', `verify-${n}.db`));
    addRoot(db, dir);
    await indexDatabase(db, { analyser: 'inline' });
    const report = buildEvidenceReport(db, {}, redactionOf({ files: 'keep' }), '1');
    db.close();
    expect(report.findings.length).toBeGreaterThan(0);
    const good = report.findings[0]!;
    report.findings = [
      { ...good, source_lines: [0] },
      { ...good, source_lines: [1e300] },
      { ...good, code: 'fake\nmatch        #9 forged' as never, file: `${good.file}\n\x1b[31m`, source_lines: [-5] },
      good,
    ];
    const results = verifyReport(JSON.stringify(report), [dir], null);
    expect(results.map((r) => r.status)).toEqual(['unverifiable', 'unverifiable', 'unverifiable', 'match']);
    const printed = results.map(formatVerifyResult).join('\n');
    expect(printed.split('\n')).toHaveLength(4);
    expect(printed).not.toContain('\x1b');
    expect(printed).not.toContain('forged');
    expect(printed).toContain('(unknown code)');
  });
});

describe('command line and database failures', () => {
  it('--port is strict: 45031abc is refused, never half-read', () => {
    for (const bad of ['45031abc', '0', '65536', '-1', '1e3', '']) {
      const run = runCli(['serve', '--no-build', '--port', bad, '--db', join(tmp, 'port.db')]);
      expect(run.status, bad).toBe(2);
      expect(run.stderr).toContain('the port must be a whole number from 1 to 65535');
    }
  });

  it('a damaged database says so, and what to do; disk full says so', () => {
    const path = join(fresh('corrupt'), 'bad.db');
    writeFileSync(path, Buffer.alloc(8192, 0x5a));
    let error: unknown;
    try {
      openDatabase(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseError);
    expect((error as DatabaseError).code).toBe('corrupt');
    const run = runCli(['report', '--db', path]);
    expect(run.stderr).toContain('the index database is damaged or is not an index database');
    expect(describeDatabaseError(Object.assign(new Error('x'), { code: 'SQLITE_FULL' }))?.code).toBe('disk_full');
  });

  it('writes the pseudonym salt when the database is made, so a read-only copy can export', () => {
    const db = openDatabase(':memory:');
    expect(db.prepare("SELECT value FROM meta WHERE key = 'pseudonym_salt'").get()).toMatchObject({ value: expect.stringMatching(/^[0-9a-f]{64}$/) });
    db.close();
  });
});

describe('HTTP hardening', () => {
  const host = '127.0.0.1:4319';

  it('API data is never cached; framework errors get our shape and headers, never the URL', async () => {
    const db = openDatabase(':memory:');
    const app = await buildApp({ db, token: 't', allowedHosts: [host] });
    try {
      for (const url of ['/api/summary', '/api/folders', '/api/index-runs/current']) {
        const r = await app.inject({ url, headers: { host } });
        expect(r.headers['cache-control'], url).toBe('no-store');
      }
      const bad = await app.inject({ url: '/api/%zzsecretpath', headers: { host } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: { status_code: 400, code: 'bad_request', message: 'the request could not be parsed' } });
      expect(bad.body).not.toContain('secretpath');
      expect(bad.headers['content-security-policy']).toBeDefined();
      expect(bad.headers['x-content-type-options']).toBe('nosniff');
      const forged = await app.inject({ url: '/api/%zz', headers: { host: 'evil.example' } });
      expect(forged.statusCode).toBe(403);
      expect(forged.json().error.code).toBe('forbidden_host');
    } finally {
      await app.close();
      db.close();
    }
  });

  it('headers too large: 431 in our shape, with security headers', async () => {
    const db = openDatabase(':memory:');
    const app = await buildApp({ db, token: 't', allowedHosts: [host] });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;
    try {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(`GET /api/secretpath HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
        });
        let out = '';
        socket.on('data', (d) => {
          out += d.toString();
        });
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 431 /);
      expect(raw.toLowerCase()).toContain('content-security-policy:');
      expect(raw).toContain('"code":"headers_too_large"');
      expect(raw).not.toContain('secretpath');
      // The server still answers afterwards.
      const ok = await new Promise<number>((resolve) => {
        request({ host: '127.0.0.1', port, path: '/api/health', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).end();
      });
      expect(ok).toBe(200);
    } finally {
      await app.close();
      db.close();
    }
  });
});
