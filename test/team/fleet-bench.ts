/**
 * A bounded fleet measurement (not a test): a private ClickHouse, MACHINES synthetic machines
 * pushing DAYS days each through the real push path, then the table's size on disk and the time
 * of the README's per-version rate query with FINAL. Run: node --import tsx test/team/fleet-bench.ts
 * (FLEET_MACHINES, FLEET_DAYS to change the size). FLEET_COPIES=N then copies the pushed rows
 * N-1 times inside ClickHouse under other machine names (INSERT … SELECT: a fleet of N × MACHINES
 * without N × the push time), so the query is timed at fleet size. Needs clickhouse-server.
 */

import { type Aggregates, buildAggregates } from '../../server/team/aggregate-format';
import { clickHouseTarget, pushAggregates } from '../../server/team/clickhouse';
import { FINDING_CODES } from '../../shared/finding-codes';
import { clickHouseBinary, startClickHouse } from './clickhouse-server';

const MACHINES = Number(process.env.FLEET_MACHINES ?? 100);
const DAYS = Number(process.env.FLEET_DAYS ?? 30);
const COPIES = Number(process.env.FLEET_COPIES ?? 1);
const VERSIONS = ['2.1.150', '2.1.151', '2.1.152', '2.1.153', '2.1.154'];
const MODELS = ['claude-opus-4-8', 'claude-sonnet-4-6'];

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

function machineAggregates(m: number): Aggregates {
  const cells = [];
  for (let d = 0; d < DAYS; d++) {
    const day = new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
    // A machine runs one or two versions a day (the rollout moves through the month), two models, both threads.
    const v = Math.min(VERSIONS.length - 1, Math.floor((d / DAYS) * VERSIONS.length + rand() * 0.8));
    for (const version of new Set([VERSIONS[v]!, VERSIONS[Math.max(0, v - 1)]!])) {
      for (const model of MODELS) {
        for (const sidechain of [0, 1] as const) {
          const turns = Math.floor(20 + rand() * 200);
          const findings: Record<string, number> = {};
          const sessions: Record<string, { sessions: number; capped: number }> = {};
          for (const code of FINDING_CODES) {
            if (rand() >= 0.1) continue;
            findings[code] = Math.floor(1 + rand() * 4);
            sessions[code] = { sessions: 1, capped: Math.min(3, findings[code]) };
          }
          cells.push({
            day,
            version,
            model,
            sidechain,
            assistant_messages: turns + 10,
            tool_use_turns: turns,
            stop_known_messages: turns,
            capture_messages: 0,
            synthetic_messages: 0,
            findings,
            sessions,
          });
        }
      }
    }
  }
  return buildAggregates({ cells, files: { ok: 400, damaged: 1, excluded: 0 } }, `machine-${String(m).padStart(4, '0')}`, '0.1.0', new Date().toISOString());
}

const bin = clickHouseBinary();
if (!bin) throw new Error('clickhouse-server is not installed');
const ch = await startClickHouse(bin);
try {
  const target = clickHouseTarget(ch.url);
  let rows = 0;
  const started = performance.now();
  for (let m = 0; m < MACHINES; m++) rows += (await pushAggregates(target, machineAggregates(m))).rows;
  const pushMs = performance.now() - started;
  if (COPIES > 1) {
    const columns = (await ch.query("SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'tcf_aggregates' FORMAT TSV"))
      .split('\n')
      .filter(Boolean);
    for (let c = 1; c < COPIES; c++) {
      const select = columns.map((name) => (name === 'machine' ? `concat(machine, '-copy${c}') AS machine` : name)).join(', ');
      // The filter sits in a subquery: ClickHouse lets WHERE see the outer alias `machine`, which is always a copy's name.
      await ch.query(`INSERT INTO tcf_aggregates SELECT ${select} FROM (SELECT * FROM tcf_aggregates WHERE NOT like(machine, '%-copy%'))`);
    }
    rows *= COPIES;
  }
  const sql = `SELECT version, code, sum(findings) AS k, sum(opportunities) AS n, 1000 * k / n AS per_1000
    FROM tcf_aggregates FINAL WHERE day >= '2026-01-01' GROUP BY version, code ORDER BY version, code FORMAT Null`;
  const timed = async () => {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      await ch.query(sql);
      times.push(performance.now() - t);
    }
    return times.sort((a, b) => a - b);
  };
  const parts = Number(await ch.query("SELECT count() FROM system.parts WHERE active AND table = 'tcf_aggregates'"));
  const unmerged = await timed();
  await ch.query('OPTIMIZE TABLE tcf_aggregates FINAL');
  const disk = Number(await ch.query("SELECT sum(bytes_on_disk) FROM system.parts WHERE active AND table = 'tcf_aggregates'"));
  const times = await timed();
  console.log(
    JSON.stringify({
      machines: MACHINES * COPIES,
      pushed_machines: MACHINES,
      days: DAYS,
      rows,
      rows_per_machine_day: rows / MACHINES / COPIES / DAYS,
      push_seconds_total: +(pushMs / 1000).toFixed(2),
      push_ms_per_machine: +(pushMs / MACHINES).toFixed(1),
      rows_in_table_final: Number(await ch.query('SELECT count() FROM tcf_aggregates FINAL')),
      bytes_on_disk: disk,
      bytes_per_row: +(disk / rows).toFixed(2),
      active_parts_before_merge: parts,
      per_version_query_ms_median_before_merge: +unmerged[3]!.toFixed(1),
      per_version_query_ms_median: +times[3]!.toFixed(1),
      per_version_query_ms_max: +times[6]!.toFixed(1),
    }),
  );
} finally {
  await ch.stop();
}
