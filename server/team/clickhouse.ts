import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AggregateHeader, AggregateRow, Aggregates } from './aggregate-format';

/**
 * `push --clickhouse URL`: fills a ReplacingMergeTree table over ClickHouse's HTTP interface
 * (node:http; features ClickHouse 18.16 has), so pushing the same index again replaces rows
 * instead of adding to them, and months of history can be pushed at once. Read with FINAL.
 */

/** ClickHouse down, refusing, or not ClickHouse. The message never repeats the URL's credentials. */
export class PushError extends Error {}

export interface ClickHouseTarget {
  /** Base URL without credentials; its query string (database=…, settings) is kept on every request. */
  url: URL;
  headers: Record<string, string>;
  table: string;
  /** Host and port, for messages. */
  where: string;
}

const TABLE = /^(?:[A-Za-z_][A-Za-z0-9_]{0,63}\.)?[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Rows per INSERT: well under ClickHouse's max_insert_block_size (1,048,576), so each insert of one partition is one block. */
const INSERT_ROWS = 100_000;

export function clickHouseTarget(text: string, table = 'tcf_aggregates'): ClickHouseTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PushError('--clickhouse takes an http:// or https:// URL, e.g. http://127.0.0.1:8123');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PushError('--clickhouse takes an http:// or https:// URL, e.g. http://127.0.0.1:8123');
  if (!TABLE.test(table)) throw new PushError('--table takes a table name (letters, digits, underscores), optionally database.table');
  const headers: Record<string, string> = {};
  // Credentials leave the URL (which messages show) and travel as HTTP basic authentication, which ClickHouse reads.
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return { url, headers, table, where: url.host };
}

/**
 * One HTTP request on a connection of its own (no keep-alive: ClickHouse closes idle connections
 * after a few seconds, and a reused one fails mid-push). POST, so every statement may write.
 */
export function request(target: ClickHouseTarget, sql: string, body = ''): Promise<string> {
  const url = new URL(target.url);
  url.searchParams.set('query', sql);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      { method: 'POST', agent: false, headers: { ...target.headers, 'content-length': Buffer.byteLength(body) }, timeout: 120_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => reject(new PushError(`ClickHouse at ${target.where} broke off its answer`)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve(text);
          // ClickHouse's own first line says what it refused (code and reason); rows are metadata only.
          reject(new PushError(`ClickHouse at ${target.where} refused (HTTP ${status}): ${text.split('\n')[0]!.slice(0, 300)}`));
        });
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => reject(new PushError(`ClickHouse at ${target.where} did not answer (${error.code ?? error.name})`)));
    req.end(body);
  });
}

const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The aggregates table: one row per machine × day × version × model × thread × code; the newest push of a key wins. */
export function createAggregatesSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
  machine String,
  day Date,
  version String,
  model String,
  thread String,
  code String,
  opportunity String,
  findings UInt64,
  sessions UInt64,
  capped_findings UInt64,
  opportunities UInt64,
  assistant_messages UInt64,
  tool_use_turns UInt64,
  stop_known_messages UInt64,
  capture_messages UInt64,
  synthetic_messages UInt64,
  detector_definitions_version UInt32,
  schema_version UInt32,
  pushed_at DateTime,
  push_version UInt64
) ENGINE = ReplacingMergeTree(push_version)
PARTITION BY toYYYYMM(day)
ORDER BY (machine, day, version, model, thread, code)`;
}

/**
 * Columns added after the first release of the table (aggregate schema 2), with the column each
 * follows. ClickHouse 18.16 has no ADD COLUMN IF NOT EXISTS, so push reads system.columns and adds
 * what a table made by an older build lacks; old rows read 0 there.
 */
export const ADDED_COLUMNS = [
  { name: 'sessions', type: 'UInt64', after: 'findings' },
  { name: 'capped_findings', type: 'UInt64', after: 'sessions' },
] as const;

async function addMissingColumns(target: ClickHouseTarget): Promise<void> {
  const [database, table] = target.table.includes('.') ? target.table.split('.') : [null, target.table];
  const where = `database = ${database === null ? 'currentDatabase()' : quote(database!)} AND table = ${quote(table!)}`;
  const have = new Set((await request(target, `SELECT name FROM system.columns WHERE ${where} FORMAT TabSeparated`)).split('\n').filter(Boolean));
  for (const c of ADDED_COLUMNS) if (!have.has(c.name)) await request(target, `ALTER TABLE ${target.table} ADD COLUMN ${c.name} ${c.type} AFTER ${c.after}`);
}

/** Per machine: its files (ok, damaged, excluded) and what produced its rows; the newest push wins. */
export function createMachinesSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table}_machines (
  machine String,
  files_ok UInt64,
  files_damaged UInt64,
  files_excluded UInt64,
  detector_definitions_version UInt32,
  tool_version String,
  schema_version UInt32,
  exported_at DateTime,
  pushed_at DateTime,
  push_version UInt64
) ENGINE = ReplacingMergeTree(push_version)
ORDER BY machine`;
}

/** ClickHouse's Date has no "unknown": its zero date 0000-00-00 (1970-01-01) stands for a day the transcript did not say. */
export const UNKNOWN_DAY = '0000-00-00';
const chDay = (day: string) => (day === '' ? UNKNOWN_DAY : day);
const chTime = (iso: string) => iso.slice(0, 19).replace('T', ' ');

export interface PushSummary {
  rows: number;
  /** Keys this machine pushed before that its index no longer has: overwritten with zeros. */
  zeroed: number;
  inserts: number;
}

/**
 * Pushes one machine's aggregates. Order: reach the server, create the tables if needed, read
 * which keys this machine pushed before (FINAL), insert every current row plus a zero row for
 * each key gone from the index, then the machine's row. Every row of one push carries a version
 * above any earlier push of this machine, so re-pushing replaces and never adds. Nothing is
 * written locally; an interrupted push leaves rows a re-run replaces.
 */
export async function pushAggregates(target: ClickHouseTarget, all: Aggregates, options: { since?: string; now?: Date } = {}): Promise<PushSummary> {
  const now = options.now ?? new Date();
  const since = options.since;
  // With --since, only days from then on (and the unknown day) are sent and compared: earlier days stay as pushed before.
  const a: Aggregates = since === undefined ? all : { header: all.header, rows: all.rows.filter((r) => r.day === '' || r.day >= since) };
  const window = since === undefined ? '' : ` AND (day >= ${quote(since)} OR day = ${quote(UNKNOWN_DAY)})`;
  await request(target, 'SELECT 1');
  await request(target, createAggregatesSql(target.table));
  await request(target, createMachinesSql(target.table));
  await addMissingColumns(target);
  const m = quote(a.header.machine);
  const previous = (await request(target, `SELECT max(push_version) AS v FROM ${target.table}_machines WHERE machine = ${m} FORMAT TabSeparated`)).trim();
  const previousRows = (await request(target, `SELECT max(push_version) AS v FROM ${target.table} WHERE machine = ${m} FORMAT TabSeparated`)).trim();
  const version = Math.max(now.getTime(), Number(previous || 0) + 1, Number(previousRows || 0) + 1);
  const keyOf = (r: { day: string; version: string; model: string; thread: string; code: string }) =>
    `${r.day}\u0000${r.version}\u0000${r.model}\u0000${r.thread}\u0000${r.code}`;
  const current = new Set(a.rows.map((r) => keyOf({ ...r, day: chDay(r.day) })));
  const stale = (await request(target, `SELECT day, version, model, thread, code FROM ${target.table} FINAL WHERE machine = ${m}${window} FORMAT JSONEachRow`))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { day: string; version: string; model: string; thread: string; code: string })
    .filter((k) => !current.has(keyOf(k)));
  const pushedAt = chTime(now.toISOString());
  const common = {
    detector_definitions_version: a.header.detector_definitions_version,
    schema_version: a.header.schema_version,
    pushed_at: pushedAt,
    push_version: version,
  };
  const lines = [
    ...a.rows.map((r) => JSON.stringify(rowOf(r, common))),
    ...stale.map((k) =>
      JSON.stringify({
        machine: a.header.machine,
        ...k,
        opportunity: '',
        findings: 0,
        sessions: 0,
        capped_findings: 0,
        opportunities: 0,
        assistant_messages: 0,
        tool_use_turns: 0,
        stop_known_messages: 0,
        capture_messages: 0,
        synthetic_messages: 0,
        ...common,
      }),
    ),
  ];
  let inserts = 0;
  for (let i = 0; i < lines.length; i += INSERT_ROWS) {
    await request(target, `INSERT INTO ${target.table} FORMAT JSONEachRow`, lines.slice(i, i + INSERT_ROWS).join('\n') + '\n');
    inserts++;
  }
  await request(target, `INSERT INTO ${target.table}_machines FORMAT JSONEachRow`, JSON.stringify(machineRowOf(a.header, pushedAt, version)) + '\n');
  return { rows: a.rows.length, zeroed: stale.length, inserts: inserts + 1 };
}

function rowOf(r: AggregateRow, common: object) {
  return { ...r, day: chDay(r.day), ...common };
}

function machineRowOf(h: AggregateHeader, pushedAt: string, version: number) {
  return {
    machine: h.machine,
    files_ok: h.files_ok,
    files_damaged: h.files_damaged,
    files_excluded: h.files_excluded,
    detector_definitions_version: h.detector_definitions_version,
    tool_version: h.tool_version,
    schema_version: h.schema_version,
    exported_at: chTime(h.exported_at),
    pushed_at: pushedAt,
    push_version: version,
  };
}
