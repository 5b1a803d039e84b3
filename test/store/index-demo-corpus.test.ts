import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoTruth, generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import type { IndexSummary } from '../../server/index/index-folders';
import { countOf, getRates } from '../../server/query/get-rates';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { cellTotals, dumpIndex } from '../support/db-dump';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-index-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('index of a generated corpus (exact against its truth)', () => {
  let truth: DemoTruth;
  let db: Db;
  let first: IndexSummary;
  let second: IndexSummary;
  const projects = join(tmp, 'corpus/projects');

  beforeAll(async () => {
    truth = generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 11, sessions: 120, canary: 'IDXCANARY' });
    db = openDatabase(join(tmp, 'a.db'));
    addRoot(db, projects);
    first = await indexDatabase(db, { analyser: 'inline' });
    second = await indexDatabase(db, { analyser: 'inline' });
  });
  afterAll(() => db.close());

  it('counts assistant messages and tool-use turns per day × version × model exactly, copies once', () => {
    // The demo corpus records a stop reason on every message (on every row, or on the last row only).
    expect(cellTotals(db)).toEqual(truth.cells.map((c) => ({ ...c, stop_known_messages: c.assistant_messages })));
  });

  it('counts each code once per message in rates, and lists every copy among findings', () => {
    const rows = getRates(db, 'version');
    const totals = Object.fromEntries(Object.keys(truth.counted_by_code).map((code) => [code, countOf(rows, code)]));
    expect(totals).toEqual(truth.counted_by_code);
    const listed = db.prepare('SELECT f.rel_path AS file, fi.code, fi.source_lines FROM findings fi JOIN files f ON f.id = fi.file_id').all() as Array<{
      file: string;
      code: string;
      source_lines: string;
    }>;
    const key = (x: { file: string; code: string; lines: number[] }) => `${x.file}|${x.code}|${x.lines.join(',')}`;
    expect(listed.map((l) => key({ ...l, lines: JSON.parse(l.source_lines) as number[] })).sort()).toEqual(truth.findings.map(key).sort());
    expect(listed.length).toBeGreaterThan(Object.values(truth.counted_by_code).reduce((a, b) => a + b, 0));
  });

  it('records the failed file with its code and line, and the file being written as in progress', () => {
    const rows = db
      .prepare("SELECT rel_path, status, error_code, error_line, assistant_messages, findings FROM files WHERE status <> 'ok' ORDER BY rel_path")
      .all();
    expect(rows).toEqual([
      { rel_path: truth.failed_files[0]!.file, status: 'failed', error_code: 'malformed_json', error_line: 2, assistant_messages: 0, findings: 0 },
      { rel_path: truth.in_progress_files[0]!, status: 'in_progress', error_code: null, error_line: null, assistant_messages: 0, findings: 0 },
    ]);
    expect(first).toMatchObject({ filesFailed: 1, filesInProgress: 1 });
  });

  it('reads nothing again when nothing changed, and changes nothing', async () => {
    expect(second).toMatchObject({ filesChanged: 0, bytesRead: 0, filesUnchanged: first.filesSeen, findingsAdded: 0, findingsRemoved: 0 });
    const before = dumpIndex(db);
    await indexDatabase(db, { analyser: 'inline' });
    expect(dumpIndex(db)).toEqual(before);
  });

  it('builds the same database with worker threads as inline', async () => {
    const other = openDatabase(join(tmp, 'workers.db'));
    try {
      addRoot(other, projects);
      await indexDatabase(other, { analyser: 'workers' });
      expect(dumpIndex(other)).toEqual(dumpIndex(db));
    } finally {
      other.close();
    }
  });
});
