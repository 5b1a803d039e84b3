import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { runCli } from '../support/run-cli';
import { freePort } from './support/read-only-server';
import { type Child, cli } from './support/spawn';

/**
 * Every path that opens a transcript goes through the one open of server/scan/safe-open.ts
 * (no-follow, O_NONBLOCK, a regular file by fstat, bounded reads). Here a finding's file is
 * swapped for a FIFO, a socket and a symbolic link under each route that re-reads a transcript
 * and under each command that reads one; every wait is bounded, so an open that blocks fails
 * the test on its timeout instead of freezing the runner.
 */

const CANARY = 'OPENSWAPCANARY';
const WAIT_MS = 4000;
const COMMAND_MS = 30_000;
const tmp = mkdtempSync(join(tmpdir(), 'tcf-openswap-'));
let server: Child | null = null;
afterAll(() => {
  // SIGKILL: a server frozen in a blocking open ignores SIGTERM (the fault this file guards against).
  server?.proc.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

type Kind = 'fifo' | 'socket' | 'symlink';
const KINDS: Kind[] = ['fifo', 'socket', 'symlink'];

let corpus: string;
let db: string;
let outside: string;

beforeAll(() => {
  generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 11, sessions: 8, canary: CANARY });
  corpus = join(tmp, 'corpus', 'projects');
  db = join(tmp, 'index.db');
  // 2: the demo corpus holds one damaged file on purpose.
  expect(runCli(['index', corpus, '--db', db]).status).toBe(2);
  outside = join(tmp, 'outside');
  mkdirSync(outside);
});

/** Replaces the file at `path` by a `kind` (the original kept aside); returns how to put it back. */
async function swap(path: string, kind: Kind): Promise<() => Promise<void>> {
  renameSync(path, `${path}.aside`);
  let socket: Server | null = null;
  if (kind === 'fifo') {
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
  } else if (kind === 'socket') {
    socket = createServer();
    await new Promise<void>((resolve) => socket!.listen(path, resolve));
  } else {
    // The same bytes, outside the folder: a link that would be followed would show them.
    const copy = join(outside, `copy-${Date.now()}.jsonl`);
    copyFileSync(`${path}.aside`, copy);
    symlinkSync(copy, path);
  }
  return async () => {
    if (socket) await new Promise((resolve) => socket.close(resolve));
    rmSync(path, { force: true });
    renameSync(`${path}.aside`, path);
  };
}

async function get(port: number, path: string): Promise<{ status: number; json: unknown } | 'no answer'> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(WAIT_MS) });
    return { status: res.status, json: await res.json() };
  } catch {
    return 'no answer';
  }
}

interface FindingRow {
  id: string;
  file: string;
  code: string;
  source_lines: number[];
}

describe('a FIFO, a socket or a link swapped in for a transcript', () => {
  it('under every route that re-reads a transcript: each answers at once, says unreadable, and the server keeps answering', async () => {
    const port = await freePort();
    server = cli(['serve', '--no-build', '--read-only', '--db', db, '--port', String(port)]);
    await Promise.race([server.waitFor('API token'), new Promise((_, reject) => setTimeout(() => reject(new Error('serve did not start')), 20_000))]);
    const list = await get(port, '/api/findings?limit=500');
    if (list === 'no answer') throw new Error('no findings list');
    const rows = (list.json as { rows: FindingRow[] }).rows;
    // A different file for each kind, so one kind's leftovers cannot answer for another.
    const files = [...new Set(rows.map((r) => r.file))];
    expect(files.length).toBeGreaterThanOrEqual(KINDS.length);
    for (const [i, kind] of KINDS.entries()) {
      const finding = rows.find((r) => r.file === files[i])!;
      const detail = await get(port, `/api/findings/${finding.id}`);
      expect(detail, 'before the swap').not.toBe('no answer');
      const sessionHash = (detail as { json: { session_hash: string } }).json.session_hash;
      expect(sessionHash).toMatch(/^[0-9a-f]+$/);

      const restore = await swap(join(corpus, finding.file), kind);
      try {
        const swappedDetail = await get(port, `/api/findings/${finding.id}`);
        expect(swappedDetail, `GET /api/findings/<id> with a ${kind}`).toMatchObject({ status: 200, json: { strip: { status: 'unreadable', rows: [] } } });
        const session = await get(port, `/api/sessions/${sessionHash}`);
        expect(session, `GET /api/sessions/<hash> with a ${kind}`).toMatchObject({ status: 200 });
        const ofFile = (session as { json: { rows: Array<{ file: string; status: string }> } }).json.rows.find((r) => r.file === finding.file);
        expect(ofFile, kind).toMatchObject({ status: 'unreadable' });
        expect(await get(port, '/api/health'), `health after a ${kind}`).toMatchObject({ status: 200, json: { status: 'ok' } });
        for (const answer of [swappedDetail, session]) expect(JSON.stringify(answer)).not.toContain(CANARY);
      } finally {
        await restore();
      }
      // Put back, the file reads again.
      expect(await get(port, `/api/findings/${finding.id}`)).toMatchObject({ status: 200, json: { strip: { status: 'ok' } } });
    }
    // A server that never froze stops on SIGTERM.
    server.proc.kill('SIGTERM');
    expect(await Promise.race([server.exit.then(() => 'stopped'), new Promise((resolve) => setTimeout(() => resolve('still running'), WAIT_MS))])).toBe(
      'stopped',
    );
    server = null;
  }, 120_000);

  it.each(KINDS)(
    'under the session and finding readers, the hook and every command (%s): each returns within its bound',
    async (kind) => {
      // The report verify reads: exported before the swap, with file names kept.
      const report = join(tmp, `report-${kind}.json`);
      const exported = runCli(['export', '--db', db, '--format', 'json', '--files', 'keep', '--out', report]);
      expect(exported.status, exported.stderr).toBe(0);
      const findings = (JSON.parse(readFileSync(report, 'utf8')) as { findings: FindingRow[] }).findings;
      const file = [...new Set(findings.map((f) => f.file))][KINDS.indexOf(kind)]!;
      const path = join(corpus, file);
      const restore = await swap(path, kind);
      try {
        // The readers the routes use, and the hook's wait for the last line, each in a process of its own.
        for (const [opener, expected] of [
          ['session-rows', 'unreadable'],
          ['finding-window', 'unreadable'],
          ['hook-flush', 'refused'],
        ] as const) {
          const r = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'support/open-once.ts'), opener, path], {
            encoding: 'utf8',
            timeout: COMMAND_MS,
            killSignal: 'SIGKILL',
          });
          expect(r.signal, `${opener} on a ${kind} did not return`).toBeNull();
          expect(r.stdout.trim(), `${opener} on a ${kind}`).toBe(JSON.stringify(expected));
        }
        const bounded = (args: string[], input?: string) => {
          const r = spawnSync(process.execPath, [join(import.meta.dirname, '../../server/cli/launch.mjs'), ...args], {
            encoding: 'utf8',
            input,
            timeout: COMMAND_MS,
            killSignal: 'SIGKILL',
            env: { ...process.env, TCF_PORT: '1' },
          });
          expect(r.signal, `${args[0]} on a ${kind} did not return`).toBeNull();
          expect(`${r.stdout}${r.stderr}`).not.toContain(CANARY);
          return r;
        };
        // scan and index list a FIFO or socket as not_regular_file, and skip a link.
        const scan = bounded(['scan', corpus, '--json']);
        const scanned = JSON.parse(scan.stdout) as { findings: Array<{ file: string }>; errors: Array<{ file: string; code: string }> };
        expect(scanned.findings.filter((f) => f.file === file)).toEqual([]);
        expect(scanned.errors.filter((e) => e.file === file)).toEqual(kind === 'symlink' ? [] : [{ file, line: null, code: 'not_regular_file' }]);
        const index = bounded(['index', corpus, '--db', join(tmp, `fresh-${kind}.db`)]);
        expect(index.status).toBe(2);
        // verify: the swapped finding no longer matches; it is never read through the link.
        const verify = bounded(['verify', report, corpus]);
        expect(verify.status).toBe(1);
        const ownLines = verify.stdout.split('\n').filter((l) => l.includes(` ${file}:`));
        expect(ownLines.length).toBeGreaterThan(0);
        for (const l of ownLines) expect(l).toMatch(/^(changed|missing) /);
        // The Stop hook: nothing to say about a file that is not a regular file, promptly, exit 0.
        const hook = bounded(['hook', 'stop'], JSON.stringify({ transcript_path: path }));
        expect(hook.status).toBe(0);
        expect(hook.stdout).toBe('');
      } finally {
        await restore();
      }
    },
    180_000,
  );

  it('no module opens a file but safe-open.ts (a new opener would bypass its checks)', () => {
    const r = spawnSync('grep', [
      '-rlE',
      '\\b(openSync|createReadStream|fs\\.open|promises\\.open)\\(',
      join(import.meta.dirname, '../../server'),
      '--include=*.ts',
    ]);
    const files = r.stdout
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((f) => f.slice(f.indexOf('/server/') + 1));
    expect(files).toEqual(['server/scan/safe-open.ts']);
  });
});
