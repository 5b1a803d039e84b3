import type { Db } from '../../server/store/database';

/**
 * Everything the index holds, keyed by relative paths and values instead of row ids, so an
 * incremental index can be compared with one built from scratch. Timestamps of runs are left out.
 */
export function dumpIndex(db: Db) {
  const all = (sql: string) => db.prepare(sql).raw().all();
  return {
    roots: all('SELECT path, label FROM roots ORDER BY path'),
    // Stored compactly since migration 015: digests as bytes (shown as hex), times as UTC milliseconds, the
    // session end's class and cell by id (shown by name and values).
    files: all(`SELECT r.label, f.rel_path, f.size, lower(hex(f.fingerprint)), f.status, f.error_code, f.error_line, f.first_row_ms,
                       f.row_span_ms, lower(hex(f.session_hash)), f.sidechain, f.assistant_messages, f.findings,
                       coalesce(f.format, 'transcript'), f.salvaged, f.damage, f.terminal_reason, k.name, e.day, e.version, e.model, e.sidechain
                FROM files f JOIN roots r ON r.id = f.root_id
                     LEFT JOIN session_end_kinds k ON k.id = f.session_end_kind LEFT JOIN cells e ON e.id = f.session_end_cell
                ORDER BY 1, 2`),
    messages: all(`SELECT f.rel_path, m.message_hash, c.day, c.version, c.model, c.sidechain, m.tool_use_turn, m.stop_known, m.capture, m.synthetic
                   FROM messages m JOIN files f ON f.id = m.file_id JOIN cells c ON c.id = m.cell_id ORDER BY 1, 2`),
    findings: all(`SELECT f.rel_path, fi.code, fi.first_line, fi.last_line, fi.source_lines, fi.evidence_sha256, c.day, c.version, c.model,
                          c.sidechain, fi.block_types, fi.signed_thinking, fi.message_hash, fi.details, fi.counted
                   FROM findings fi JOIN files f ON f.id = fi.file_id JOIN cells c ON c.id = fi.cell_id ORDER BY 1, 2, 3`),
    rootCells: all(`SELECT r.label, c.day, c.version, c.model, c.sidechain, rc.assistant_messages, rc.tool_use_turns, rc.stop_known_messages,
                           rc.capture_messages, rc.synthetic_messages
                    FROM root_cells rc JOIN roots r ON r.id = rc.root_id JOIN cells c ON c.id = rc.cell_id ORDER BY 1, 2, 3, 4, 5`),
  };
}

/**
 * Denominators per day × version × model, summed over roots and main/sidechain. Cells holding
 * only synthetic (harness-written) rows have no model messages and are left out.
 */
export function cellTotals(db: Db) {
  return db
    .prepare<[], { day: string; version: string; model: string; assistant_messages: number; tool_use_turns: number; stop_known_messages: number }>(
      `SELECT c.day, c.version, c.model, sum(rc.assistant_messages) AS assistant_messages, sum(rc.tool_use_turns) AS tool_use_turns,
              sum(rc.stop_known_messages) AS stop_known_messages
       FROM root_cells rc JOIN cells c ON c.id = rc.cell_id GROUP BY 1, 2, 3 HAVING sum(rc.assistant_messages) > 0 ORDER BY 1, 2, 3`,
    )
    .all();
}
