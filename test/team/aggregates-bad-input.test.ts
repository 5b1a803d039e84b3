import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { getRates } from '../../server/query/get-rates';
import { getVerdictCards } from '../../server/query/get-regressions';
import { type Db, openDatabase } from '../../server/store/database';
import { IndexBusyError, tryAcquireIndexLock } from '../../server/store/index-lock';
import { addRoot } from '../../server/store/roots';
import { aggregatesToNdjson, writeAggregateFile } from '../../server/team/aggregate-files';
import { type AggregateRow, type Aggregates, HEADER_KEY } from '../../server/team/aggregate-format';
import { collectAggregates } from '../../server/team/collect-aggregates';
import { importAggregateFiles } from '../../server/team/import-aggregates';
import { newCanary } from '../support/canary-transcripts';
import { runCli } from '../support/run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-team-bad-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Everything a team database holds, to show a refused import changed nothing. */
function teamDump(db: Db) {
  const all = (sql: string) => db.prepare(sql).raw().all();
  return {
    machines: all('SELECT machine, files_ok, files_damaged, files_excluded, exported_at FROM team_machines ORDER BY machine'),
    cells: all(
      'SELECT m.machine, c.day, c.version, c.model, c.sidechain, t.* FROM team_cells t JOIN team_machines m ON m.id = t.machine_id JOIN cells c ON c.id = t.cell_id ORDER BY 1, 2, 3, 4, 5',
    ),
    findings: all(
      'SELECT m.machine, t.cell_id, t.code, t.findings, t.sessions, t.capped_findings FROM team_findings t JOIN team_machines m ON m.id = t.machine_id ORDER BY 1, 2, 3',
    ),
  };
}

describe('import-aggregates refuses bad input with a clear error and writes nothing', () => {
  let good: Aggregates;
  let team: Db;
  let baseline: ReturnType<typeof teamDump>;
  let n = 0;
  const file = (a: Aggregates | string, name = `f${++n}.ndjson`) => {
    const path = join(tmp, name);
    if (typeof a === 'string') writeFileSync(path, a);
    else writeAggregateFile(path, a, name.endsWith('.parquet') ? 'parquet' : 'ndjson');
    return path;
  };
  const clone = (): Aggregates => structuredClone(good);
  const withRow = (i: number, patch: Record<string, unknown>): Aggregates => {
    const a = clone();
    a.rows[i] = { ...a.rows[i]!, ...patch } as AggregateRow;
    return a;
  };

  beforeAll(async () => {
    generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 5, sessions: 25 });
    const db = openDatabase(join(tmp, 'local.db'));
    addRoot(db, join(tmp, 'corpus/projects'));
    await indexDatabase(db, { analyser: 'inline' });
    good = collectAggregates(db, { machine: 'carol', toolVersion: '0.1.0' }).aggregates;
    db.close();
    team = openDatabase(join(tmp, 'team.db'));
    // A machine already imported: every refused import below must leave it exactly as it is.
    const other = structuredClone(good);
    other.header.machine = 'dave';
    for (const r of other.rows) r.machine = 'dave';
    await importAggregateFiles(team, [file(other)]);
    baseline = teamDump(team);
    expect(baseline.machines).toHaveLength(1);
  }, 60_000);
  afterAll(() => team.close());
  beforeEach(() => expect(teamDump(team)).toEqual(baseline));

  const refuses = async (paths: string[], message: RegExp) => {
    await expect(importAggregateFiles(team, paths)).rejects.toThrow(message);
    expect(teamDump(team)).toEqual(baseline);
  };

  it('a foreign schema version, named before anything else is checked', async () => {
    const a = clone();
    (a.header as { schema_version: number }).schema_version = 3;
    await refuses([file(a)], /aggregate file 1, line 1: schema version 3 is foreign: this build reads schema version 2 only$/);
    // Version 1 (no sessions per cell): an older build's file, and the message says what to do.
    const old = clone();
    (old.header as { schema_version: number }).schema_version = 1;
    for (const r of old.rows) {
      delete (r as Partial<AggregateRow>).sessions;
      delete (r as Partial<AggregateRow>).capped_findings;
    }
    await refuses([file(old)], /schema version 1 is foreign: this build reads schema version 2 only \(an older build wrote it: export again with this one\)/);
    await refuses([file('{"hello":1}\n')], /aggregate file 1, line 1: not a tool-call-forensics aggregate file/);
    await refuses([file('')], /empty file/);
  });

  it('negative, fractional, textual and unsafe counts', async () => {
    await refuses([file(withRow(3, { findings: -1 }))], /aggregate file 1, line 5: findings is not a non-negative integer/);
    await refuses([file(withRow(0, { assistant_messages: 1.5 }))], /line 2: assistant_messages is not a non-negative integer/);
    await refuses([file(withRow(0, { tool_use_turns: '7' }))], /line 2: tool_use_turns is not a non-negative integer/);
    await refuses([file(withRow(0, { tool_use_turns: 2 ** 60 }))], /line 2: tool_use_turns is not a non-negative integer/);
    const a = clone();
    a.header.files_damaged = -2;
    await refuses([file(a)], /header: files_damaged is not a non-negative integer/);
  });

  it('a negative count in Parquet too', async () => {
    const a = clone();
    const rows = a.rows;
    const buffer = parquetWriteBuffer({
      columnData: [
        ...(['machine', 'day', 'version', 'model', 'thread', 'code', 'opportunity'] as const).map((name) => ({
          name,
          data: rows.map((r) => r[name]),
          type: 'STRING' as const,
        })),
        ...(
          [
            'findings',
            'sessions',
            'capped_findings',
            'opportunities',
            'assistant_messages',
            'tool_use_turns',
            'stop_known_messages',
            'capture_messages',
            'synthetic_messages',
          ] as const
        ).map((name) => ({
          name,
          data: rows.map((r, i) => BigInt(i === 2 && name === 'findings' ? -4 : r[name])),
          type: 'INT64' as const,
        })),
      ],
      kvMetadata: [{ key: HEADER_KEY, value: JSON.stringify(a.header) }],
    });
    const path = join(tmp, 'negative.parquet');
    writeFileSync(path, new Uint8Array(buffer));
    await refuses([path], /aggregate file 1, row 3: findings is not a non-negative integer/);
    writeFileSync(path, Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64), Buffer.from('PAR1')]));
    await refuses([path], /aggregate file 1: not a readable Parquet file/);
  });

  it('sessions and capped findings that cannot be: more sessions than findings, none with findings, caps out of range', async () => {
    const i = good.rows.findIndex((r) => r.findings > 0);
    const r = good.rows[i]!;
    const line = new RegExp(`line ${i + 2}: sessions do not fit the findings`);
    await refuses([file(withRow(i, { sessions: r.findings + 1 }))], line);
    await refuses([file(withRow(i, { sessions: 0, capped_findings: 0 }))], line);
    const empty = good.rows.findIndex((x) => x.findings === 0);
    await refuses([file(withRow(empty, { sessions: 1 }))], new RegExp(`line ${empty + 2}: sessions do not fit the findings`));
    const capped = new RegExp(`line ${i + 2}: capped_findings do not fit \\(between the sessions and 3 per session, at most the findings\\)`);
    await refuses([file(withRow(i, { capped_findings: r.findings + 1 }))], capped);
    await refuses([file(withRow(i, { capped_findings: r.sessions - 1 }))], capped);
    await refuses([file(withRow(i, { findings: 7, sessions: 1, capped_findings: 4 }))], capped);
  });

  it('a duplicated machine among the files, even when both files are sound', async () => {
    await refuses([file(good), file(good, 'again.parquet')], /aggregate files 1 and 2 are both from machine carol: import one of them/);
  });

  it('a second file that fails leaves the first unwritten too', async () => {
    await refuses([file(good), file(withRow(1, { opportunities: 99999 }))], /aggregate file 2, line 3: opportunities differ from the cell's/);
  });

  it('a cut file, a duplicated row, and rows that disagree on a cell', async () => {
    const text = aggregatesToNdjson(good).split('\n');
    await refuses([file(text.slice(0, -3).join('\n') + '\n')], new RegExp(`announces ${good.rows.length} rows, the file holds ${good.rows.length - 2}`));
    const dup = clone();
    dup.rows[1] = { ...dup.rows[0]! };
    await refuses([file(dup)], /row 2: a second row for the same day, version, model, thread and code/);
    // Row 3 is text_leaked_tool_call (over assistant messages) of the first cell: its own opportunity still matches.
    const disagree = clone();
    expect(disagree.rows[2]!.code).toBe('text_leaked_tool_call');
    disagree.rows[2]!.tool_use_turns += 1;
    await refuses([file(disagree)], /row 3: the cell's denominators differ from an earlier row of the same cell/);
    await refuses([file(`${text[0]}\n{not json\n`)], /aggregate file 1, line 2: not JSON/);
  });

  it('values that are not metadata: the canary never reaches the database or the message', async () => {
    const canary = newCanary();
    for (const [field, message] of [
      ['model', /model is not a model id/],
      ['version', /version is not a Claude Code version/],
      ['day', /day is not YYYY-MM-DD/],
      ['code', /finding code is not one this build knows/],
      ['thread', /thread is neither main nor sidechain/],
      ['machine', /machine differs from the header/],
    ] as const) {
      const error = await importAggregateFiles(team, [file(withRow(0, { [field]: `x ${canary}` }))]).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(canary);
    }
    const extra = await importAggregateFiles(team, [file(withRow(0, { [`note_${canary}`]: 'x' }))]).catch((e: Error) => e);
    expect((extra as Error).message).toMatch(/1 field this schema does not have/);
    expect((extra as Error).message).not.toContain(canary);
    const a = clone();
    a.header.machine = `${canary}/home`;
    expect(((await importAggregateFiles(team, [file(a)]).catch((e: Error) => e)) as Error).message).toMatch(/not a valid machine name/);
    expect(teamDump(team)).toEqual(baseline);
    expect(readFileSync(join(tmp, 'team.db')).includes(Buffer.from(canary))).toBe(false);
  });

  it('other detector definitions, unless asked to mix them', async () => {
    const a = clone();
    a.header.detector_definitions_version = 2;
    const path = file(a);
    await refuses([path], /counted with detector definitions v2, this build has v\d+; .*--mixed-definitions/);
    const scratch = openDatabase(join(tmp, 'mixed.db'));
    await importAggregateFiles(scratch, [path], { mixedDefinitions: true });
    expect(getRates(scratch, 'version').length).toBeGreaterThan(0);
    scratch.close();
  });

  it('while an index run holds the database, and then imports once it is released', async () => {
    const scratch = openDatabase(join(tmp, 'locked.db'));
    const lock = tryAcquireIndexLock(scratch);
    await expect(importAggregateFiles(scratch, [file(good)])).rejects.toThrow(IndexBusyError);
    expect(scratch.prepare('SELECT count(*) AS n FROM team_machines').get()).toEqual({ n: 0 });
    lock.release();
    await importAggregateFiles(scratch, [file(good)]);
    expect(scratch.prepare('SELECT count(*) AS n FROM team_machines').get()).toEqual({ n: 1 });
    // The import released the lock it took: an index run can start.
    tryAcquireIndexLock(scratch).release();
    scratch.close();
  });

  it('carries synthetic messages per cell into the team database (NDJSON and Parquet), beside the denominators', async () => {
    for (const name of ['syn.ndjson', 'syn.parquet']) {
      const scratch = openDatabase(join(tmp, `${name}.db`));
      const a = clone();
      const first = a.rows[0]!;
      for (const r of a.rows) {
        const same = r.day === first.day && r.version === first.version && r.model === first.model && r.thread === first.thread;
        if (same) r.synthetic_messages = 7;
      }
      await importAggregateFiles(scratch, [file(a, name)]);
      const total = getRates(scratch, 'version').reduce((n, r) => n + (r.synthetic_messages ?? 0), 0);
      const syntheticOf = (rows: AggregateRow[]) => rows.filter((r) => r.code === first.code).reduce((n, r) => n + r.synthetic_messages, 0);
      expect(total).toBe(syntheticOf(a.rows));
      expect(total).toBe(7 + syntheticOf(good.rows) - good.rows[0]!.synthetic_messages);
      scratch.close();
    }
  });

  it('a database that holds a local index', async () => {
    const local = openDatabase(join(tmp, 'local.db'));
    await expect(importAggregateFiles(local, [file(good)])).rejects.toThrow(/holds a local index/);
    expect(local.prepare('SELECT count(*) AS n FROM team_machines').get()).toEqual({ n: 0 });
    local.close();
  });

  it('the CLI says what is wrong and exits 2', () => {
    const run = runCli(['import-aggregates', '--db', join(tmp, 'team.db'), file(withRow(3, { findings: -1 }))]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('error: aggregate file 1, line 5: findings is not a non-negative integer\n');
    expect(teamDump(team)).toEqual(baseline);
  });
});

describe('team rows imported before aggregate schema 2 (migration 014 leaves their sessions NULL)', () => {
  it('count in full on the cards, each machine as one session, as before', async () => {
    generateDemoCorpus({ out: join(tmp, 'legacy'), seed: 31, sessions: 300, regression: 'from-2.1.40' });
    const local = openDatabase(join(tmp, 'legacy-local.db'));
    addRoot(local, join(tmp, 'legacy/projects'));
    await indexDatabase(local, { analyser: 'inline' });
    const path = join(tmp, 'legacy.ndjson');
    writeAggregateFile(path, collectAggregates(local, { machine: 'erin', toolVersion: '0.1.0' }).aggregates, 'ndjson');
    const truth = getVerdictCards(local);
    local.close();
    const team = openDatabase(join(tmp, 'legacy-team.db'));
    await importAggregateFiles(team, [path]);
    expect(getVerdictCards(team)).toEqual(truth);
    team.prepare('UPDATE team_findings SET sessions = NULL, capped_findings = NULL').run();
    const legacy = getVerdictCards(team);
    const sides = legacy.rows.flatMap((c) => c.codes.flatMap((code) => [code.before, code.after]));
    expect(sides.some((s) => s.events > 0)).toBe(true);
    for (const s of sides) {
      expect(s.count).toBe(s.events);
      expect(s.sessions).toBe(s.events > 0 ? 1 : 0);
    }
    // The schema-2 counts were the finer ones: some side had more than one session.
    expect(Math.max(...truth.rows.flatMap((c) => c.codes.map((code) => code.after.sessions)))).toBeGreaterThan(1);
    team.close();
  });
});
