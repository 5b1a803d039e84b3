import { DayPattern } from '../../shared/api-schemas';
import { FINDING_OPPORTUNITY, type Opportunity } from '../../shared/denominators';
import { DETECTOR_DEFINITIONS_VERSION, FINDING_CODES, type FindingCode } from '../../shared/finding-codes';
import { safeModelId, safeVersion } from '../../shared/metadata-patterns';
import { SESSION_CAP } from '../query/get-regressions';
import type { AggregateFacts } from './get-aggregate-facts';
import type { TeamMachineAggregates } from './team-import';
import { MACHINE_PATTERN } from './team-machine-id';

/**
 * The aggregate file: what one machine's index says, in counts only, so that files from many
 * machines can be summed. Version 2 (version 1 had no `sessions` and `capped_findings`). A header (NDJSON: the first line; Parquet: key-value
 * metadata under HEADER_KEY) and one row per machine × day × version × model × thread × code,
 * zeros included, each with the code's findings and opportunities and the cell's denominators.
 */
export const AGGREGATE_FORMAT = 'tool-call-forensics/aggregates';
export const AGGREGATE_SCHEMA_VERSION = 2;
/** Key of the header in a Parquet file's key-value metadata. */
export const HEADER_KEY = 'tool-call-forensics.aggregates.header';

export interface AggregateHeader {
  format: typeof AGGREGATE_FORMAT;
  schema_version: number;
  machine: string;
  exported_at: string;
  tool_version: string;
  detector_definitions_version: number;
  /** Files read cleanly, damaged (failed with a code and a line), excluded (still being written). */
  files_ok: number;
  files_damaged: number;
  files_excluded: number;
  /** How many rows follow, so a cut file is caught. */
  rows: number;
}

export type Thread = 'main' | 'sidechain';

export interface AggregateRow {
  machine: string;
  /** YYYY-MM-DD (UTC), '' when unknown; version and model '' when unknown. */
  day: string;
  version: string;
  model: string;
  thread: Thread;
  code: FindingCode;
  findings: number;
  /** Sessions (files) holding this code's counted findings in this cell; 0 when there are none. */
  sessions: number;
  /** The findings counted at most SESSION_CAP per session, as the verdict cards count them. */
  capped_findings: number;
  opportunity: Opportunity;
  opportunities: number;
  assistant_messages: number;
  tool_use_turns: number;
  stop_known_messages: number;
  capture_messages: number;
  /** Harness-written messages (`<synthetic>` model or API error notices): in no denominator, reported beside them. */
  synthetic_messages: number;
}

/** Columns in file order; the Parquet schema and the row check follow it. */
export const STRING_COLUMNS = ['machine', 'day', 'version', 'model', 'thread', 'code', 'opportunity'] as const;
export const COUNT_COLUMNS = [
  'findings',
  'sessions',
  'capped_findings',
  'opportunities',
  'assistant_messages',
  'tool_use_turns',
  'stop_known_messages',
  'capture_messages',
  'synthetic_messages',
] as const;
const HEADER_COUNTS = ['files_ok', 'files_damaged', 'files_excluded', 'rows'] as const;
const HEADER_FIELDS = ['format', 'schema_version', 'machine', 'exported_at', 'tool_version', 'detector_definitions_version', ...HEADER_COUNTS];
const ROW_FIELDS = [...STRING_COLUMNS, ...COUNT_COLUMNS].sort();

export interface Aggregates {
  header: AggregateHeader;
  rows: AggregateRow[];
}

/** A file that cannot be imported. The message says where (file number, line or row) and why, and never quotes a value. */
export class AggregateFileError extends Error {}

const DAY = new RegExp(DayPattern);
const CODE_ORDER = new Map(FINDING_CODES.map((c, i) => [c, i]));

/** Every cell × every registered code, in a stable order: day, version, model, thread, then registry order. */
export function buildAggregates(facts: AggregateFacts, machine: string, toolVersion: string, exportedAt: string): Aggregates {
  const rows: AggregateRow[] = [];
  for (const cell of facts.cells) {
    const thread: Thread = cell.sidechain ? 'sidechain' : 'main';
    for (const code of FINDING_CODES) {
      const opportunity = FINDING_OPPORTUNITY[code];
      rows.push({
        machine,
        day: cell.day,
        version: cell.version,
        model: cell.model,
        thread,
        code,
        findings: cell.findings[code] ?? 0,
        sessions: cell.sessions[code]?.sessions ?? 0,
        capped_findings: cell.sessions[code]?.capped ?? 0,
        opportunity,
        opportunities: cell[opportunity],
        assistant_messages: cell.assistant_messages,
        tool_use_turns: cell.tool_use_turns,
        stop_known_messages: cell.stop_known_messages,
        capture_messages: cell.capture_messages,
        synthetic_messages: cell.synthetic_messages,
      });
    }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort(
    (a, b) =>
      cmp(a.day, b.day) || cmp(a.version, b.version) || cmp(a.model, b.model) || cmp(a.thread, b.thread) || CODE_ORDER.get(a.code)! - CODE_ORDER.get(b.code)!,
  );
  return {
    header: {
      format: AGGREGATE_FORMAT,
      schema_version: AGGREGATE_SCHEMA_VERSION,
      machine,
      exported_at: exportedAt,
      tool_version: toolVersion,
      detector_definitions_version: DETECTOR_DEFINITIONS_VERSION,
      files_ok: facts.files.ok,
      files_damaged: facts.files.damaged,
      files_excluded: facts.files.excluded,
      rows: rows.length,
    },
    rows,
  };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sameKeys(value: Record<string, unknown>, expected: readonly string[], where: string): void {
  const keys = Object.keys(value).sort();
  const want = [...expected].sort();
  const missing = want.filter((k) => !keys.includes(k));
  const extra = keys.filter((k) => !want.includes(k));
  if (missing.length > 0) throw new AggregateFileError(`${where}: missing field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  // Unknown field names are not quoted: they could be anything.
  if (extra.length > 0) throw new AggregateFileError(`${where}: ${extra.length} field${extra.length > 1 ? 's' : ''} this schema does not have`);
}

/** Checks a header: its format and schema version first (a foreign file says so before anything else). */
export function checkHeader(value: unknown, where: string): AggregateHeader {
  if (!isObject(value) || value.format !== AGGREGATE_FORMAT)
    throw new AggregateFileError(`${where}: not a tool-call-forensics aggregate file (no header naming ${AGGREGATE_FORMAT})`);
  if (value.schema_version !== AGGREGATE_SCHEMA_VERSION) {
    const said = Number.isSafeInteger(value.schema_version) ? String(value.schema_version) : 'unreadable';
    const older = typeof value.schema_version === 'number' && value.schema_version < AGGREGATE_SCHEMA_VERSION;
    throw new AggregateFileError(
      `${where}: schema version ${said} is foreign: this build reads schema version ${AGGREGATE_SCHEMA_VERSION} only` +
        (older ? ' (an older build wrote it: export again with this one)' : ''),
    );
  }
  sameKeys(value, HEADER_FIELDS, `${where}, header`);
  if (typeof value.machine !== 'string' || !MACHINE_PATTERN.test(value.machine))
    throw new AggregateFileError(`${where}, header: the machine name is not a valid machine name`);
  if (typeof value.exported_at !== 'string' || Number.isNaN(Date.parse(value.exported_at)) || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value.exported_at)) {
    throw new AggregateFileError(`${where}, header: exported_at is not an ISO-8601 UTC time`);
  }
  if (typeof value.tool_version !== 'string' || safeVersion(value.tool_version) === null)
    throw new AggregateFileError(`${where}, header: tool_version is not a version`);
  if (!isCount(value.detector_definitions_version) || value.detector_definitions_version === 0) {
    throw new AggregateFileError(`${where}, header: detector_definitions_version is not a positive integer`);
  }
  for (const k of HEADER_COUNTS) if (!isCount(value[k])) throw new AggregateFileError(`${where}, header: ${k} is not a non-negative integer`);
  return value as unknown as AggregateHeader;
}

/** Checks one row against the header: field set, metadata patterns, counts, and the code's opportunity. */
export function checkRow(value: unknown, header: AggregateHeader, where: string): AggregateRow {
  if (!isObject(value)) throw new AggregateFileError(`${where}: not an object`);
  sameKeys(value, ROW_FIELDS, where);
  if (value.machine !== header.machine) throw new AggregateFileError(`${where}: the row's machine differs from the header's`);
  if (typeof value.day !== 'string' || (value.day !== '' && (!DAY.test(value.day) || Number.isNaN(Date.parse(`${value.day}T00:00:00Z`))))) {
    throw new AggregateFileError(`${where}: day is not YYYY-MM-DD or empty`);
  }
  if (typeof value.version !== 'string' || (value.version !== '' && safeVersion(value.version) === null)) {
    throw new AggregateFileError(`${where}: version is not a Claude Code version or empty`);
  }
  if (typeof value.model !== 'string' || (value.model !== '' && safeModelId(value.model) === null))
    throw new AggregateFileError(`${where}: model is not a model id or empty`);
  if (value.thread !== 'main' && value.thread !== 'sidechain') throw new AggregateFileError(`${where}: thread is neither main nor sidechain`);
  if (typeof value.code !== 'string' || !CODE_ORDER.has(value.code as FindingCode)) {
    throw new AggregateFileError(`${where}: the finding code is not one this build knows (detector definitions v${DETECTOR_DEFINITIONS_VERSION})`);
  }
  for (const k of COUNT_COLUMNS) if (!isCount(value[k])) throw new AggregateFileError(`${where}: ${k} is not a non-negative integer`);
  const row = value as unknown as AggregateRow;
  if (row.opportunity !== FINDING_OPPORTUNITY[row.code])
    throw new AggregateFileError(`${where}: ${row.code} is measured over ${FINDING_OPPORTUNITY[row.code]}, not another opportunity`);
  if (row.opportunities !== row[row.opportunity]) throw new AggregateFileError(`${where}: opportunities differ from the cell's ${row.opportunity}`);
  // Sessions hold the findings: none without findings, at least one and at most one per finding with them;
  // capped findings lie between one per session and SESSION_CAP per session, and never above the findings.
  if (row.findings === 0 ? row.sessions !== 0 : row.sessions < 1 || row.sessions > row.findings)
    throw new AggregateFileError(`${where}: sessions do not fit the findings (at least 1 and at most one per finding when there are findings, else 0)`);
  if (row.capped_findings < row.sessions || row.capped_findings > Math.min(row.findings, SESSION_CAP * row.sessions))
    throw new AggregateFileError(`${where}: capped_findings do not fit (between the sessions and ${SESSION_CAP} per session, at most the findings)`);
  return row;
}

/**
 * Checks a whole file (row count, one row per key, one set of denominators per cell) and turns
 * it into what the store writes.
 */
export function toMachineAggregates(a: Aggregates, where: string): TeamMachineAggregates {
  if (a.rows.length !== a.header.rows)
    throw new AggregateFileError(`${where}: the header announces ${a.header.rows} rows, the file holds ${a.rows.length} (cut or padded)`);
  const cells = new Map<string, TeamMachineAggregates['cells'][number]>();
  const seen = new Set<string>();
  a.rows.forEach((r, i) => {
    const cellKey = `${r.day}\u0000${r.version}\u0000${r.model}\u0000${r.thread}`;
    if (seen.has(`${cellKey}\u0000${r.code}`))
      throw new AggregateFileError(`${where}, row ${i + 1}: a second row for the same day, version, model, thread and code`);
    seen.add(`${cellKey}\u0000${r.code}`);
    let cell = cells.get(cellKey);
    if (!cell) {
      cell = {
        day: r.day,
        version: r.version,
        model: r.model,
        sidechain: r.thread === 'sidechain' ? 1 : 0,
        assistant_messages: r.assistant_messages,
        tool_use_turns: r.tool_use_turns,
        stop_known_messages: r.stop_known_messages,
        capture_messages: r.capture_messages,
        synthetic_messages: r.synthetic_messages,
        findings: {},
      };
      cells.set(cellKey, cell);
    } else if (
      cell.assistant_messages !== r.assistant_messages ||
      cell.tool_use_turns !== r.tool_use_turns ||
      cell.stop_known_messages !== r.stop_known_messages ||
      cell.capture_messages !== r.capture_messages ||
      cell.synthetic_messages !== r.synthetic_messages
    ) {
      throw new AggregateFileError(`${where}, row ${i + 1}: the cell's denominators differ from an earlier row of the same cell`);
    }
    if (r.findings > 0) cell.findings[r.code] = { findings: r.findings, sessions: r.sessions, capped_findings: r.capped_findings };
  });
  const { format: _format, rows: _rows, ...machine } = a.header;
  return { machine, cells: [...cells.values()] };
}
