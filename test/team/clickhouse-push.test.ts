import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoTruth, generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { getRates } from '../../server/query/get-rates';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import type { Aggregates } from '../../server/team/aggregate-format';
import { clickHouseTarget, createAggregatesSql, pushAggregates } from '../../server/team/clickhouse';
import { collectAggregates } from '../../server/team/collect-aggregates';
import { FINDING_CODES } from '../../shared/finding-codes';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';
import { dumpIndex } from '../support/db-dump';
import { runCli } from '../support/run-cli';
import { freePort, PUSHER_PASSWORD, type RunningClickHouse, requireClickHouseOrSkip, startClickHouse } from './clickhouse-server';

const bin = requireClickHouseOrSkip('push to ClickHouse');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-push-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Sums {
  version: string;
  assistant_messages: number;
  tool_use_turns: number;
  findings: Record<string, number>;
}

/** Per version: denominators (from one code's rows, which carry the cell's) and findings per code, read with FINAL. */
async function versionSums(ch: RunningClickHouse, machines: string[]): Promise<Sums[]> {
  const inList = machines.map((m) => `'${m}'`).join(', ');
  const parse = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, string>);
  const denominators = parse(
    await ch.query(`SELECT version, sum(assistant_messages) AS a, sum(tool_use_turns) AS t FROM tcf_aggregates FINAL
                    WHERE machine IN (${inList}) AND code = 'orphan_tool_use' GROUP BY version ORDER BY version FORMAT JSONEachRow`),
  );
  const findings = parse(
    await ch.query(`SELECT version, code, sum(findings) AS n FROM tcf_aggregates FINAL
                    WHERE machine IN (${inList}) GROUP BY version, code HAVING n > 0 FORMAT JSONEachRow`),
  );
  return denominators
    .map((d) => ({
      version: d.version!,
      assistant_messages: Number(d.a),
      tool_use_turns: Number(d.t),
      findings: Object.fromEntries(findings.filter((f) => f.version === d.version).map((f) => [f.code!, Number(f.n)])),
    }))
    .filter((s) => s.assistant_messages > 0 || Object.keys(s.findings).length > 0)
    .sort((a, b) => (a.version < b.version ? -1 : 1));
}

/** The same figures from a local index (what the dashboard shows). */
function localSums(db: Db): Sums[] {
  return getRates(db, 'version')
    .map((r) => ({
      version: r.key ?? '',
      assistant_messages: r.assistant_messages,
      tool_use_turns: r.tool_use_turns,
      findings: Object.fromEntries(r.codes.filter((c) => c.count > 0).map((c) => [c.code, c.count])),
    }))
    .sort((a, b) => (a.version < b.version ? -1 : 1));
}

describe.skipIf(bin === null)('push to a real ClickHouse (Debian clickhouse-server, started here)', () => {
  let ch: RunningClickHouse;
  let truths: DemoTruth[];
  const canary = newCanary();
  const dbs: Record<'alpha' | 'beta' | 'gamma' | 'all', string> = {
    alpha: join(tmp, 'alpha.db'),
    beta: join(tmp, 'beta.db'),
    gamma: join(tmp, 'gamma.db'),
    all: join(tmp, 'all.db'),
  };

  beforeAll(async () => {
    ch = await startClickHouse(bin!);
    truths = [
      generateDemoCorpus({ out: join(tmp, 'a'), seed: 31, sessions: 60, canary }),
      generateDemoCorpus({ out: join(tmp, 'b'), seed: 32, sessions: 60, canary, start: '2026-05-12' }),
    ];
    const canaryRoot = writeCanaryTranscripts(tmp, canary, { canaryInNames: false });
    const roots = { alpha: [join(tmp, 'a/projects')], beta: [join(tmp, 'b/projects')], gamma: [canaryRoot] };
    for (const [name, dirs] of Object.entries({ ...roots, all: Object.values(roots).flat() })) {
      const db = openDatabase(dbs[name as keyof typeof dbs]);
      for (const d of dirs) addRoot(db, d);
      await indexDatabase(db, { analyser: 'inline' });
      db.close();
    }
  }, 180_000);
  afterAll(async () => {
    await ch?.stop();
  }, 60_000);

  const push = (machine: keyof typeof dbs) => runCli(['push', '--clickhouse', ch.url, '--machine', machine, '--db', dbs[machine]]);

  it('pushing every machine twice gives sums equal to the truth, once', async () => {
    for (let round = 0; round < 2; round++) {
      for (const m of ['alpha', 'beta', 'gamma'] as const) {
        const run = push(m);
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toMatch(new RegExp(`machine ${m}: pushed \\d+ rows to tcf_aggregates`));
      }
    }
    // Against the generator's own truth (alpha and beta: the demo corpora).
    const pushed = await versionSums(ch, ['alpha', 'beta']);
    const byVersion = new Map<string, { a: number; t: number }>();
    for (const c of truths.flatMap((t) => t.cells)) {
      const v = byVersion.get(c.version) ?? { a: 0, t: 0 };
      byVersion.set(c.version, { a: v.a + c.assistant_messages, t: v.t + c.tool_use_turns });
    }
    expect(pushed.map((s) => [s.version, s.assistant_messages, s.tool_use_turns])).toEqual([...byVersion].sort().map(([v, x]) => [v, x.a, x.t]));
    const counted: Record<string, number> = {};
    for (const t of truths) for (const [code, n] of Object.entries(t.counted_by_code)) counted[code] = (counted[code] ?? 0) + n;
    const pushedCounts: Record<string, number> = {};
    for (const s of pushed) for (const [code, n] of Object.entries(s.findings)) pushedCounts[code] = (pushedCounts[code] ?? 0) + n;
    expect(pushedCounts).toEqual(Object.fromEntries(Object.entries(counted).filter(([, n]) => n > 0)));
    // Against one local index of all three machines' transcripts.
    const all = openDatabase(dbs.all);
    expect(await versionSums(ch, ['alpha', 'beta', 'gamma'])).toEqual(localSums(all));
    all.close();
    // One row per key after FINAL, whatever merges have or have not run.
    const rows = Number(await ch.query('SELECT count() FROM tcf_aggregates FINAL'));
    const keys = Number(await ch.query('SELECT uniqExact(machine, day, version, model, thread, code) FROM tcf_aggregates'));
    expect(rows).toBe(keys);
    expect(rows % FINDING_CODES.length).toBe(0);
    const machines = await ch.query('SELECT machine, files_ok, files_damaged, files_excluded FROM tcf_aggregates_machines FINAL ORDER BY machine FORMAT TSV');
    expect(
      machines
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('holds no canary in any table', async () => {
    const tables = (await ch.query("SELECT name FROM system.tables WHERE database = 'default' FORMAT TSV")).split('\n').filter(Boolean);
    expect(tables.sort()).toEqual(['tcf_aggregates', 'tcf_aggregates_machines']);
    let bytes = 0;
    for (const t of tables) {
      const dump = await ch.query(`SELECT * FROM ${t} FORMAT TSV`);
      bytes += dump.length;
      expect(dump.includes(canary), t).toBe(false);
      expect(dump.includes(tmp), t).toBe(false);
    }
    expect(bytes).toBeGreaterThan(1000);
    // The canary corpus did reach the table: its findings, not its words.
    expect(Number(await ch.query("SELECT sum(findings) FROM tcf_aggregates FINAL WHERE machine = 'gamma'"))).toBeGreaterThan(0);
  });

  it('sets rows the index no longer has to zero, so sums follow the index', async () => {
    const db = openDatabase(dbs.beta);
    const { aggregates } = collectAggregates(db, { machine: 'beta', toolVersion: '0.1.0' });
    db.close();
    const lastDay = aggregates.rows
      .map((r) => r.day)
      .sort()
      .at(-1);
    const fewer: Aggregates = { header: { ...aggregates.header }, rows: aggregates.rows.filter((r) => r.day !== lastDay) };
    fewer.header.rows = fewer.rows.length;
    const result = await pushAggregates(clickHouseTarget(ch.url), fewer);
    expect(result.zeroed).toBe(aggregates.rows.length - fewer.rows.length);
    const left = Number(await ch.query("SELECT sum(assistant_messages) FROM tcf_aggregates FINAL WHERE machine = 'beta' AND code = 'orphan_tool_use'"));
    const want = fewer.rows.filter((r) => r.code === 'orphan_tool_use').reduce((n, r) => n + r.assistant_messages, 0);
    expect(left).toBe(want);
    expect(want).toBeLessThan(aggregates.rows.filter((r) => r.code === 'orphan_tool_use').reduce((n, r) => n + r.assistant_messages, 0));
    // And back: a full push restores them.
    expect(push('beta').status).toBe(0);
    const all = openDatabase(dbs.all);
    expect(await versionSums(ch, ['alpha', 'beta', 'gamma'])).toEqual(localSums(all));
    all.close();
  });

  it('--since pushes only recent days and leaves earlier ones as they were', async () => {
    const before = await versionSums(ch, ['alpha', 'beta', 'gamma']);
    const run = runCli(['push', '--clickhouse', ch.url, '--machine', 'alpha', '--db', dbs.alpha, '--since', '2026-06-01']);
    expect(run.status, run.stderr).toBe(0);
    const db = openDatabase(dbs.alpha);
    const { aggregates } = collectAggregates(db, { machine: 'alpha', toolVersion: '0.1.0' });
    db.close();
    const recent = aggregates.rows.filter((r) => r.day === '' || r.day >= '2026-06-01').length;
    expect(recent).toBeGreaterThan(0);
    expect(recent).toBeLessThan(aggregates.rows.length);
    expect(run.stdout).toContain(`pushed ${recent} rows`);
    expect(run.stdout).not.toContain('set to zero');
    expect(await versionSums(ch, ['alpha', 'beta', 'gamma'])).toEqual(before);
    const bad = runCli(['push', '--clickhouse', ch.url, '--db', dbs.alpha, '--since', 'last week']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('error: --since takes a UTC day, YYYY-MM-DD\n');
  });

  it('a ClickHouse that is down or refuses: a clear error, exit 2, the index untouched, and a re-run completes', async () => {
    const db = openDatabase(dbs.alpha);
    const before = dumpIndex(db);
    db.close();
    const closed = await freePort();
    const down = runCli(['push', '--clickhouse', `http://127.0.0.1:${closed}/`, '--machine', 'alpha', '--db', dbs.alpha]);
    expect(down.status).toBe(2);
    expect(down.stderr).toBe(`error: ClickHouse at 127.0.0.1:${closed} did not answer (ECONNREFUSED)\n`);
    // A table of the same name with another shape: ClickHouse refuses the insert.
    await ch.query('CREATE TABLE wrong_shape (x UInt8) ENGINE = Memory');
    const refused = runCli(['push', '--clickhouse', `${ch.url}/`, '--machine', 'alpha', '--db', dbs.alpha, '--table', 'wrong_shape']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^error: ClickHouse at 127\.0\.0\.1:\d+ refused \(HTTP \d+\): Code: \d+/);
    await ch.query('DROP TABLE wrong_shape');
    await ch.query('DROP TABLE IF EXISTS wrong_shape_machines');
    const after = openDatabase(dbs.alpha);
    expect(dumpIndex(after)).toEqual(before);
    after.close();
    const rerun = push('alpha');
    expect(rerun.status, rerun.stderr).toBe(0);
    const all = openDatabase(dbs.all);
    expect(await versionSums(ch, ['alpha', 'beta', 'gamma'])).toEqual(localSums(all));
    all.close();
  });

  it('adds the session columns to a table an older build made (no ADD COLUMN IF NOT EXISTS in 18.16), and fills them', async () => {
    const old = createAggregatesSql('old_build').replace('  sessions UInt64,\n  capped_findings UInt64,\n', '');
    expect(old).not.toContain('sessions');
    await ch.query(old);
    for (let round = 0; round < 2; round++) {
      const run = runCli(['push', '--clickhouse', ch.url, '--machine', 'alpha', '--db', dbs.alpha, '--table', 'old_build']);
      expect(run.status, run.stderr).toBe(0);
    }
    const columns = await ch.query("SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'old_build' FORMAT TSV");
    expect(columns.split('\n').slice(7, 10)).toEqual(['findings', 'sessions', 'capped_findings']);
    const db = openDatabase(dbs.alpha);
    const local = collectAggregates(db, { machine: 'alpha', toolVersion: '0.1.0' }).aggregates.rows;
    db.close();
    const sum = (k: 'sessions' | 'capped_findings') => local.reduce((n, r) => n + r[k], 0);
    const [sessions, capped] = (await ch.query('SELECT sum(sessions), sum(capped_findings) FROM old_build FINAL FORMAT TSV')).trim().split('\t').map(Number);
    expect(sum('sessions')).toBeGreaterThan(0);
    expect([sessions, capped]).toEqual([sum('sessions'), sum('capped_findings')]);
    await ch.query('DROP TABLE old_build');
    await ch.query('DROP TABLE IF EXISTS old_build_machines');
  });

  it('credentials in the URL travel as basic authentication and never appear in a message', async () => {
    const withUser = (password: string) => ch.url.replace('http://', `http://pusher:${password}@`);
    const wrong = runCli(['push', '--clickhouse', withUser('not-the-password'), '--machine', 'alpha', '--db', dbs.alpha]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/refused \(HTTP \d+\): Code: \d+.*(password|Password)/);
    expect(wrong.stderr).not.toContain('not-the-password');
    const right = runCli(['push', '--clickhouse', withUser(PUSHER_PASSWORD), '--machine', 'alpha', '--db', dbs.alpha]);
    expect(right.status, right.stderr).toBe(0);
    expect(right.stdout).not.toContain(PUSHER_PASSWORD);
  });
});
