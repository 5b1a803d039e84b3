import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type DemoTruth, generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { type Db, openDatabase } from '../../server/store/database';
import { forgetFiles } from '../../server/store/forget';
import { addRoot } from '../../server/store/roots';
import { dumpIndex } from '../support/db-dump';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-incr-'));
const pristine = join(tmp, 'pristine');
const truth: DemoTruth = generateDemoCorpus({ out: pristine, seed: 5, sessions: 30, canary: 'INCRCANARY' });
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let run = 0;
let work: string;
let db: Db;

async function fresh(): Promise<ReturnType<typeof dumpIndex>> {
  const other = openDatabase(join(tmp, `fresh-${run}-${Math.random()}.db`));
  try {
    addRoot(other, work);
    await indexDatabase(other, { analyser: 'inline' });
    return dumpIndex(other);
  } finally {
    other.close();
  }
}

/** A file with at least one finding, so a change to it moves findings too. */
const fileWithFinding = () => join(work, truth.findings.find((f) => !f.file.includes('resumed'))!.file);

describe('incremental indexing equals indexing from scratch', () => {
  beforeEach(async () => {
    run++;
    work = join(tmp, `work-${run}`, 'projects');
    cpSync(join(pristine, 'projects'), work, { recursive: true });
    db = openDatabase(join(tmp, `incr-${run}.db`));
    addRoot(db, work);
    await indexDatabase(db, { analyser: 'inline' });
    return () => db.close();
  });

  it('a changed file: old rows replaced', async () => {
    const path = fileWithFinding();
    const lines = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, lines.filter((l) => !l.includes('"tool_use_error')).join('\n'));
    const summary = await indexDatabase(db, { analyser: 'inline' });
    expect(summary.filesChanged).toBe(1);
    expect(dumpIndex(db)).toEqual(await fresh());
  });

  it('an appended file', async () => {
    const path = fileWithFinding();
    const rows = readFileSync(path, 'utf8').trimEnd().split('\n');
    appendFileSync(
      path,
      rows
        .slice(0, 3)
        .map((r) => r.replace(/"msg_[0-9a-f]+"/, '"msg_appended0001"'))
        .join('\n') + '\n',
    );
    await indexDatabase(db, { analyser: 'inline' });
    expect(dumpIndex(db)).toEqual(await fresh());
  });

  it('a truncated file, even with size-preserving mtime games', async () => {
    const path = fileWithFinding();
    const size = readFileSync(path).length;
    truncateSync(path, Math.floor(size / 2));
    appendFileSync(path, '\n');
    utimesSync(path, new Date(0), new Date(0));
    await indexDatabase(db, { analyser: 'inline' });
    expect(dumpIndex(db)).toEqual(await fresh());
  });

  it('a deleted file: its rows and findings are kept as gone (issue 27) until forgotten, then it is as if never indexed', async () => {
    const path = fileWithFinding();
    const before = dumpIndex(db);
    unlinkSync(path);
    const summary = await indexDatabase(db, { analyser: 'inline' });
    expect(summary).toMatchObject({ filesRemoved: 0, filesGone: 1, findingsRemoved: 0 });
    expect(dumpIndex(db)).toEqual(before);
    expect((await forgetFiles(db, { gone: true })).findings).toBeGreaterThan(0);
    expect(dumpIndex(db)).toEqual(await fresh());
  });

  it('a file that starts failing mid-way keeps nothing of its earlier good rows', async () => {
    const path = fileWithFinding();
    const rows = readFileSync(path, 'utf8').trimEnd().split('\n');
    const at = Math.floor(rows.length / 2);
    rows.splice(at, 0, '{"type":"assistant","message":{"id":"x","content":[{"type":"text","text":"a"}],"content":[]}}');
    writeFileSync(path, rows.join('\n') + '\n');
    await indexDatabase(db, { analyser: 'inline' });
    const rel = path.slice(work.length + 1);
    const file = db.prepare('SELECT id, status, error_code, error_line FROM files WHERE rel_path = ?').get(rel) as {
      id: number;
      status: string;
      error_code: string;
      error_line: number;
    };
    expect(file).toMatchObject({ status: 'failed', error_code: 'duplicate_key', error_line: at + 1 });
    expect(db.prepare('SELECT count(*) AS n FROM messages WHERE file_id = ?').get(file.id)).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM findings WHERE file_id = ?').get(file.id)).toEqual({ n: 0 });
    expect(dumpIndex(db)).toEqual(await fresh());
  });

  it('the copy of a resumed session stops being deduplicated once the original is deleted', async () => {
    const resumed = truth.findings.find((f) => f.file.includes('resumed'))!.file;
    const original = join(work, resumed.replace('-resumed.jsonl', '.jsonl'));
    const countedBefore = (db.prepare('SELECT sum(assistant_messages) AS n FROM root_cells').get() as { n: number }).n;
    const originalMessages = (db.prepare('SELECT assistant_messages AS n FROM files WHERE rel_path = ?').get(original.slice(work.length + 1)) as { n: number })
      .n;
    unlinkSync(original);
    await indexDatabase(db, { analyser: 'inline' });
    // The original is kept as gone (issue 27): its copy in the resumed file is still not counted twice.
    expect((db.prepare('SELECT sum(assistant_messages) AS n FROM root_cells').get() as { n: number }).n).toBe(countedBefore);
    await forgetFiles(db, { gone: true });
    // Forgotten, its messages live on in the copy, so the deduplicated count does not move either.
    expect((db.prepare('SELECT sum(assistant_messages) AS n FROM root_cells').get() as { n: number }).n).toBe(countedBefore);
    expect(originalMessages).toBeGreaterThan(0);
    expect(dumpIndex(db)).toEqual(await fresh());
  });
});
