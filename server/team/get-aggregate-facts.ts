import type { Denominators } from '../../shared/denominators';
import { FINDING_CODES, type FindingCode } from '../../shared/finding-codes';
import { DENOMINATOR_SUMS_SQL, denominatorsOf, type StoredDenominators } from '../query/get-rates';
import { SESSION_CAP } from '../query/get-regressions';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';

/**
 * (Cells also hold the effort since migration 018; the team format does not carry it yet, so efforts
 * are summed here: one fact per day, version, model and thread.)
 * The additive facts of this machine's local index, for `export-aggregates` and `push`: the one
 * place that reads them, so a change of stored columns is made here only. Sums over every root
 * (each root already counts a message once); imported team rows are never re-exported.
 */
function prepare(db: Db) {
  return {
    // Denominators per cell as root_cells stores them (migration 005), synthetic messages beside them.
    cellFacts: db.prepare<[], StoredDenominators & { day: string; version: string; model: string; sidechain: number }>(`
      SELECT c.day, c.version, c.model, c.sidechain, ${DENOMINATOR_SUMS_SQL}
      FROM root_cells rc JOIN cells c ON c.id = rc.cell_id
      GROUP BY c.day, c.version, c.model, c.sidechain`),
    // Findings counted in rates (one copy per message and root), per cell and code.
    findingFacts: db.prepare<[], { day: string; version: string; model: string; sidechain: number; code: string; findings: number }>(`
      SELECT c.day, c.version, c.model, c.sidechain, fi.code, count(*) AS findings
      FROM findings fi JOIN cells c ON c.id = fi.cell_id
      WHERE fi.counted = 1
      GROUP BY c.day, c.version, c.model, c.sidechain, fi.code`),
    // What the verdict cards need, per cell and code: the sessions (files) holding counted
    // findings, and the findings capped at SESSION_CAP per session, as the cards cap them.
    sessionFacts: db.prepare<[number], { day: string; version: string; model: string; sidechain: number; code: string; sessions: number; capped: number }>(`
      SELECT s.day, s.version, s.model, s.sidechain, s.code, count(*) AS sessions, sum(min(s.n, ?)) AS capped
      FROM (SELECT c.day, c.version, c.model, c.sidechain, fi.code, fi.file_id, count(*) AS n
            FROM findings fi JOIN cells c ON c.id = fi.cell_id WHERE fi.counted = 1
            GROUP BY c.day, c.version, c.model, c.sidechain, fi.code, fi.file_id) s
      GROUP BY s.day, s.version, s.model, s.sidechain, s.code`),
    // Files by status: ok, failed (damaged: reported with a code and a line) and in_progress
    // (excluded: still being written, so neither clean nor a source of findings).
    fileFacts: db.prepare<[], { status: string; n: number }>('SELECT status, count(*) AS n FROM files GROUP BY status'),
  };
}

export interface AggregateCellFact extends Denominators {
  /** Harness-written messages: in no denominator, carried so a team database reports them as the local index does. */
  synthetic_messages: number;
  day: string;
  version: string;
  model: string;
  sidechain: 0 | 1;
  /** Counted findings per registered code (codes without any are absent). */
  findings: Partial<Record<FindingCode, number>>;
  /** Per code with findings: the sessions (files) holding them in this cell, and the findings capped per session (SESSION_CAP). */
  sessions: Partial<Record<FindingCode, { sessions: number; capped: number }>>;
}

export interface AggregateFacts {
  cells: AggregateCellFact[];
  files: { ok: number; damaged: number; excluded: number };
}

/**
 * Every cell of the local index with its denominators and counted findings per code; a cell
 * that has findings but no denominators (none today) is kept with zero denominators.
 */
export function getAggregateFacts(db: Db): AggregateFacts {
  const st = prepared(db, prepare);
  const cells = new Map<string, AggregateCellFact>();
  const keyOf = (r: { day: string; version: string; model: string; sidechain: number }) => `${r.day}\u0000${r.version}\u0000${r.model}\u0000${r.sidechain}`;
  const cellOf = (r: { day: string; version: string; model: string; sidechain: number }) => {
    let cell = cells.get(keyOf(r));
    if (!cell) {
      cell = {
        day: r.day,
        version: r.version,
        model: r.model,
        sidechain: r.sidechain ? 1 : 0,
        assistant_messages: 0,
        tool_use_turns: 0,
        stop_known_messages: 0,
        capture_messages: 0,
        synthetic_messages: 0,
        findings: {},
        sessions: {},
      };
      cells.set(keyOf(r), cell);
    }
    return cell;
  };
  for (const r of st.cellFacts.all()) {
    const d = denominatorsOf(r);
    Object.assign(cellOf(r), {
      assistant_messages: d.assistant_messages,
      tool_use_turns: d.tool_use_turns,
      stop_known_messages: d.stop_known_messages,
      capture_messages: d.capture_messages,
      synthetic_messages: d.synthetic_messages,
    });
  }
  const known = new Set<string>(FINDING_CODES);
  // A code no detector registers any more has no rate on any page; it is not exported either.
  for (const r of st.findingFacts.all()) if (known.has(r.code)) cellOf(r).findings[r.code as FindingCode] = r.findings;
  for (const r of st.sessionFacts.all(SESSION_CAP))
    if (known.has(r.code)) cellOf(r).sessions[r.code as FindingCode] = { sessions: r.sessions, capped: r.capped };
  const files = new Map(st.fileFacts.all().map((r) => [r.status, r.n]));
  return {
    cells: [...cells.values()],
    files: { ok: files.get('ok') ?? 0, damaged: files.get('failed') ?? 0, excluded: files.get('in_progress') ?? 0 },
  };
}
