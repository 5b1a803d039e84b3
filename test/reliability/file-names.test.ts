import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { formatScanTable, runScan } from '../../server/cli/scan-command';
import { verifyReport } from '../../server/cli/verify-command';
import { indexFilesOfRoot } from '../../server/live/index-files';
import { buildEvidenceReport, redactionOf } from '../../server/query/build-evidence-report';
import { getFindingDetail } from '../../server/query/get-finding-detail';
import { componentBytes, displayComponent, fsPath } from '../../server/scan/file-name-bytes';
import { type WalkResult, walkDirectory } from '../../server/scan/walk-inputs';
import { openDatabase } from '../../server/store/database';
import { findingId } from '../../server/store/finding-id';
import { prepareIndexStatements } from '../../server/store/index-statements';
import { addRoot } from '../../server/store/roots';
import { fixturesRoot } from '../support/detector-fixtures';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-names-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const folder = () => {
  const dir = join(tmp, `case-${++n}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const bytesPath = (dir: string, ...parts: Array<string | Buffer>) =>
  Buffer.concat([Buffer.from(dir), ...parts.flatMap((p) => [Buffer.from('/'), typeof p === 'string' ? Buffer.from(p) : p])]);
const named = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

const CANARY = `NAMECANARY${Math.random().toString(36).slice(2)}`;
const row = (id: string) =>
  JSON.stringify({
    type: 'assistant',
    timestamp: '2026-05-01T10:00:00.000Z',
    cwd: `/home/${CANARY}`,
    message: { id: `${id}-${CANARY}`, role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'text', text: CANARY }], stop_reason: 'end_turn' },
  });

// The names of the issue: two that differ only in an invalid byte, one with a control character,
// one whose *text* is what the escaped form of another would be (a\xff.jsonl written out in
// ASCII), a backslash, and a folder whose name is not UTF-8.
const NAMES = [
  named('a', [0xff], '.jsonl'),
  named('a', [0xfe], '.jsonl'),
  named('a\\xff.jsonl'),
  named('line\nbreak\x1b[31m.jsonl'),
  named('back\\slash.jsonl'),
  named('caf', [0xc3, 0xa9], '.jsonl'), // valid UTF-8: shown as itself
];
const DISPLAY = ['a\\xff.jsonl', 'a\\xfe.jsonl', 'a\\\\xff.jsonl', 'line\\x0abreak\\x1b[31m.jsonl', 'back\\\\slash.jsonl', 'café.jsonl'];

describe('display names of file names that are not plain UTF-8', () => {
  it('are unique and reversible, and hold no control character (property)', () => {
    const component = fc.uint8Array({ minLength: 1, maxLength: 40 }).filter((b) => !b.includes(0) && !b.includes(0x2f));
    fc.assert(
      fc.property(component, component, (a, b) => {
        const da = displayComponent(Buffer.from(a));
        expect(componentBytes(da)).toEqual(Buffer.from(a));
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the check
        expect(da).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
        if (!Buffer.from(a).equals(Buffer.from(b))) expect(displayComponent(Buffer.from(b))).not.toBe(da);
      }),
      { numRuns: 2000 },
    );
    expect(NAMES.map(displayComponent)).toEqual(DISPLAY);
    // Only the canonical escape names something: no second spelling of the same bytes.
    expect(componentBytes('a\\x41.jsonl')).toBeNull();
    expect(componentBytes('a\\q')).toBeNull();
  });
});

describe('files whose names are not plain UTF-8 are read', () => {
  it('scan lists each under its own display name, reads it, and prints no payload', () => {
    const dir = folder();
    for (const [i, name] of NAMES.entries()) writeFileSync(bytesPath(dir, name), `${row(`m${i}`)}\n`);
    mkdirSync(bytesPath(dir, named('sub', [0x80])));
    writeFileSync(bytesPath(dir, named('sub', [0x80]), 'inner.jsonl'), `${row('inner')}\n`);
    const walk: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
    walkDirectory(dir, '', walk);
    expect(walk.problems).toEqual([]);
    expect(walk.files.map((f) => f.name).sort()).toEqual([...DISPLAY, 'sub\\x80/inner.jsonl'].sort());
    const result = runScan([dir], {});
    expect(result.summary).toMatchObject({ files_scanned: NAMES.length + 1, files_failed: 0 });
    expect(result.errors).toEqual([]);
    const printed = JSON.stringify(result) + formatScanTable(result);
    expect(printed).not.toContain(CANARY);
    expect(printed).not.toContain('\n\x1b');
    expect(printed).not.toMatch(/line\nbreak/);
  });

  it('index keys them apart, finds nothing changed on a second run, and re-reads a finding context by name', async () => {
    const dir = folder();
    const orphan = readFileSync(join(fixturesRoot, 'detectors', 'orphan_tool_use', 'positive-call-without-result.jsonl'));
    const inFolder = named('d', [0xff]);
    mkdirSync(bytesPath(dir, inFolder));
    const names = [named('o', [0xff], '.jsonl'), named('o', [0xfe], '.jsonl'), named('o\\xff.jsonl')];
    for (const name of names) writeFileSync(bytesPath(dir, inFolder, name), orphan);
    const db = openDatabase(join(tmp, `names-${n}.db`));
    try {
      addRoot(db, dir);
      const first = await indexDatabase(db, { analyser: 'inline' });
      expect(first).toMatchObject({ filesSeen: 3, filesChanged: 3, filesFailed: 0 });
      const files = db.prepare<[], { rel_path: string; status: string }>('SELECT rel_path, status FROM files ORDER BY rel_path').all();
      expect(files).toEqual(['d\\xff/o\\\\xff.jsonl', 'd\\xff/o\\xfe.jsonl', 'd\\xff/o\\xff.jsonl'].sort().map((rel_path) => ({ rel_path, status: 'ok' })));
      const again = await indexDatabase(db, { analyser: 'inline' });
      expect(again).toMatchObject({ filesSeen: 3, filesUnchanged: 3, filesChanged: 0, filesRemoved: 0 });
      const findings = db
        .prepare<[], { root_id: number; file: string; code: string; first_line: number }>(
          'SELECT f.root_id, f.rel_path AS file, fi.code, fi.first_line FROM findings fi JOIN files f ON f.id = fi.file_id ORDER BY f.rel_path',
        )
        .all();
      expect(findings.map((f) => f.file)).toEqual(files.map((f) => f.rel_path));
      for (const f of findings) {
        const detail = getFindingDetail(db, findingId(f.root_id, f.file, f.code, f.first_line), 15);
        expect(detail?.strip.status).toBe('ok');
        expect(detail?.strip.rows.length).toBeGreaterThan(0);
      }
      // The index holds display names only; the payload never.
      const dump = JSON.stringify(db.prepare('SELECT * FROM files').all()) + JSON.stringify(db.prepare('SELECT * FROM findings').all());
      expect(dump).not.toContain(CANARY);
      // A changed file is seen as changed through its byte name.
      copyFileSync(join(fixturesRoot, 'detectors', 'orphan_tool_use', 'positive-compaction-after-next-message.jsonl'), bytesPath(dir, inFolder, names[1]!));
      expect(await indexDatabase(db, { analyser: 'inline' })).toMatchObject({ filesChanged: 1, filesUnchanged: 2 });
      // The live path (a watched change, by display name) reaches the same file, never a second row.
      writeFileSync(bytesPath(dir, inFolder, names[2]!), orphan);
      const root = prepareIndexStatements(db).rootById.get(1)!;
      const live = await indexFilesOfRoot(db, root, ['d\\xff/o\\\\xff.jsonl']);
      expect(live.filesChanged).toBe(1);
      expect(db.prepare('SELECT count(*) AS n FROM files').get()).toEqual({ n: 3 });
    } finally {
      db.close();
    }
  });

  it('verify re-reads such files by their display names', async () => {
    const dir = folder();
    const orphan = readFileSync(join(fixturesRoot, 'detectors', 'orphan_tool_use', 'positive-call-without-result.jsonl'));
    for (const name of [named('v', [0xff], '.jsonl'), named('v', [0xfe], '.jsonl')]) writeFileSync(bytesPath(dir, name), orphan);
    const db = openDatabase(join(tmp, `verify-${n}.db`));
    addRoot(db, dir);
    await indexDatabase(db, { analyser: 'inline' });
    const report = buildEvidenceReport(db, {}, redactionOf({ files: 'keep' }), '1');
    db.close();
    expect(report.findings.map((f) => f.file).sort()).toEqual(['v\\xfe.jsonl', 'v\\xff.jsonl']);
    expect(verifyReport(JSON.stringify(report), [dir], null).map((r) => r.status)).toEqual(['match', 'match']);
    // One changed byte in one of the two: only that one stops matching.
    writeFileSync(bytesPath(dir, named('v', [0xfe], '.jsonl')), orphan.toString().replace('"assistant"', '"assistanT"'));
    const after = verifyReport(JSON.stringify(report), [dir], null);
    expect(after.map((r) => r.status).sort()).toEqual(['changed', 'match']);
  });

  it('a malformed byte path never reaches the file system', () => {
    expect(fsPath('\0/x\0a\\q.jsonl')).toBeNull();
    expect(fsPath('/plain/path.jsonl')).toBe('/plain/path.jsonl');
    expect(fsPath('\0/x\0a\\xff.jsonl')).toEqual(Buffer.concat([Buffer.from('/x/a'), Buffer.from([0xff]), Buffer.from('.jsonl')]));
  });
});
