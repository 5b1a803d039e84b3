import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { runScan } from '../../server/cli/scan-command';
import { analyseFile } from '../../server/detect/analyse-file';
import { workerAnalyser } from '../../server/index/analysis-pool';
import { IndexRunner } from '../../server/index/index-runner';
import { MAX_NESTING_DEPTH } from '../../server/scan/duplicate-keys';
import { QUIET_PERIOD_MS, readJsonRows } from '../../server/scan/read-json-rows';
import { type WalkResult, walkDirectory } from '../../server/scan/walk-inputs';
import { openDatabase } from '../../server/store/database';
import { sqliteIndexStore } from '../../server/store/index-store';
import { addRoot } from '../../server/store/roots';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-hostile-'));
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(tmp, { recursive: true, force: true });
});

const assistant = (id: string, model = 'claude-opus-4-6') =>
  JSON.stringify({
    type: 'assistant',
    timestamp: '2026-05-01T10:00:00.000Z',
    message: { id, role: 'assistant', model, content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn' },
  });

function mkfifo(path: string): void {
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error('mkfifo failed');
}

async function listenSocket(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
}

let n = 0;
const folder = () => {
  const dir = join(tmp, `case-${++n}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

describe('FIFOs, sockets and other non-regular files never hang a run', () => {
  it('scan reports a FIFO or socket named *.jsonl as not_regular_file, without opening it for reading', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.jsonl'), `${assistant('m1')}\n`);
    mkfifo(join(dir, 'fifo.jsonl'));
    await listenSocket(join(dir, 'sock.jsonl'));
    const walk: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
    walkDirectory(dir, '', walk);
    expect(walk.files.map((f) => f.name)).toEqual(['a.jsonl']);
    expect(walk.problems).toEqual([
      { name: 'fifo.jsonl', code: 'not_regular_file' },
      { name: 'sock.jsonl', code: 'not_regular_file' },
    ]);
    // Opened directly (a FIFO swapped in after the walk): refused at once, with the same code.
    expect(analyseFile(join(dir, 'fifo.jsonl'), { forIndex: true })).toMatchObject({ status: 'failed', failure: { code: 'not_regular_file', line: null } });
  });

  it('index counts and lists them, and a FIFO swapped in mid-run fails that file only; the server can scan again afterwards', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.jsonl'), `${assistant('m1')}\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${assistant('m2')}\n`);
    mkfifo(join(dir, 'fifo.jsonl'));
    const db = openDatabase(join(dir, '..', `idx-${n}.db`));
    try {
      addRoot(db, dir);
      let swapped = false;
      const summary = await indexDatabase(db, {
        analyser: 'inline',
        onProgress: (p) => {
          // After the walk saw b.jsonl as a regular file, before it is read.
          if (p.phase === 'indexing' && !swapped) {
            swapped = true;
            unlinkSync(join(dir, 'b.jsonl'));
            mkfifo(join(dir, 'b.jsonl'));
          }
        },
      });
      expect(swapped).toBe(true);
      expect(summary.failures.map((f) => [f.file, f.code])).toEqual([
        ['b.jsonl', 'not_regular_file'],
        ['fifo.jsonl', 'not_regular_file'],
      ]);
      // The server's runner ends its scan, and the next one starts (no 409 forever).
      const runner = new IndexRunner(sqliteIndexStore(db), 'inline', 0, () => {});
      await (await runner.start()).done;
      expect(runner.current().state).toBe('done');
      const again = await runner.start();
      expect((await again.done)?.filesFailed).toBe(2);
    } finally {
      db.close();
    }
  });
});

describe('deep nesting', () => {
  it('fails with nesting_too_deep at its line, identically on the main thread and in a worker', async () => {
    const dir = folder();
    const deep = (levels: number) => `{"type":"summary","x":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const files = {
      limit: join(dir, 'limit.jsonl'),
      over: join(dir, 'over.jsonl'),
      huge: join(dir, 'huge.jsonl'),
    };
    writeFileSync(files.limit, `${assistant('m1')}\n${deep(MAX_NESTING_DEPTH - 1)}\n`);
    writeFileSync(files.over, `${assistant('m1')}\n\n${deep(MAX_NESTING_DEPTH)}\n`);
    writeFileSync(files.huge, `${assistant('m1')}\n${deep(200_000)}\n`);
    const paths = Object.values(files);
    const main = paths.map((p) => analyseFile(p, { forIndex: true }));
    expect(main.map((a) => a.status)).toEqual(['ok', 'failed', 'failed']);
    expect(main[1]).toMatchObject({ failure: { code: 'nesting_too_deep', line: 3 } });
    expect(main[2]).toMatchObject({ failure: { code: 'nesting_too_deep', line: 2 } });
    const pool = workerAnalyser(1);
    try {
      const batch = await pool.analyse(paths);
      const inWorker = Array.from({ length: batch.length }, (_, i) => batch.at(i));
      expect(inWorker.map((a) => (a.status === 'failed' ? a.failure : a.status))).toEqual(main.map((a) => (a.status === 'failed' ? a.failure : a.status)));
    } finally {
      await pool.close();
    }
  });
});

describe('other coded failures', () => {
  it('a line longer than the limit is line_too_long at its line', () => {
    const dir = folder();
    const path = join(dir, 'long.jsonl');
    writeFileSync(path, `${assistant('m1')}\n{"type":"summary","s":"${'x'.repeat(5000)}"}\n`);
    const outcome = readJsonRows(path, { jsonOf: (t) => t, accept: () => 'ok' }, { maxLineBytes: 1000 });
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'line_too_long', line: 2 } });
  });

  it('a cut last line is "being written" while the file is fresh, and unfinished_last_line once it has been quiet', async () => {
    const dir = folder();
    const path = join(dir, 'cut.jsonl');
    writeFileSync(path, `${assistant('m1')}\n{"type":"summ`);
    expect(analyseFile(path, { forIndex: true })).toMatchObject({ status: 'in_progress' });
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    utimesSync(path, hourAgo, hourAgo);
    expect(analyseFile(path, { forIndex: true })).toMatchObject({ status: 'failed', failure: { code: 'unfinished_last_line', line: 2 } });
    const db = openDatabase(join(dir, 'idx.db'));
    try {
      addRoot(db, dir);
      const summary = await indexDatabase(db, { analyser: 'inline' });
      expect(summary.failures).toEqual([{ root: `case-${n}`, file: 'cut.jsonl', code: 'unfinished_last_line', line: 2 }]);
    } finally {
      db.close();
    }
  });

  it('scan and index share one quiet period: the same cut file is in progress, then unfinished_last_line, in both', async () => {
    const dir = folder();
    const path = join(dir, 'cut.jsonl');
    writeFileSync(path, `${assistant('m1')}\n{"type":"assistant","message":{"id":"m2`);
    const stamp = new Date(Date.now() - 60 * 1000);
    utimesSync(path, stamp, stamp);
    const at = stamp.getTime();
    // Just inside the quiet period, then just past it, on scan's own clock.
    const fresh = runScan([dir], { now: at + QUIET_PERIOD_MS - 1000 });
    expect(fresh.summary).toMatchObject({ files_in_progress: 1, files_failed: 0 });
    expect(fresh.errors).toEqual([]);
    const quiet = runScan([dir], { now: at + QUIET_PERIOD_MS + 1000 });
    expect(quiet.summary).toMatchObject({ files_in_progress: 0, files_failed: 1 });
    expect(quiet.errors).toEqual([{ file: 'cut.jsonl', line: 2, code: 'unfinished_last_line' }]);
    const db = openDatabase(join(dir, 'idx.db'));
    try {
      addRoot(db, dir);
      expect((await indexDatabase(db, { analyser: 'inline' })).filesInProgress).toBe(1);
      const old = new Date(Date.now() - QUIET_PERIOD_MS - 60 * 1000);
      utimesSync(path, old, old);
      expect((await indexDatabase(db, { analyser: 'inline' })).failures).toEqual([
        { root: `case-${n}`, file: 'cut.jsonl', code: 'unfinished_last_line', line: 2 },
      ]);
    } finally {
      db.close();
    }
  });

  it('two file names that are not UTF-8 stay two entries, with their bytes escaped, and are read (file-names.test.ts has more)', () => {
    const dir = folder();
    const name = (b: number) => Buffer.concat([Buffer.from(`${dir}/a`), Buffer.from([b]), Buffer.from('.jsonl')]);
    writeFileSync(name(0xff), `${assistant('m1')}\n`);
    writeFileSync(name(0xfe), `${assistant('m2')}\n`);
    const walk: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
    walkDirectory(dir, '', walk);
    expect(walk.problems).toEqual([]);
    expect(walk.files.map((f) => f.name)).toEqual(['a\\xfe.jsonl', 'a\\xff.jsonl']);
    expect(walk.files.map((f) => analyseFile(f.path).status)).toEqual(['ok', 'ok']);
  });
});
