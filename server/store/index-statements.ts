import type { KnownFile } from '../index/storage-port';
import type { Db } from './database';

/** A file's row as the planner reads it: the index states the shape it needs, the store reads exactly that. */
export type FileRow = KnownFile;

export interface RootRow {
  id: number;
  path: string;
  label: string;
  added_at: string;
  last_scan_at: string | null;
  /** 1: the owner asked to salvage this folder's damaged files (migration 010). */
  salvage: number;
}

const CLEAR_ROOT_CELLS_SQL = 'DELETE FROM root_cells';
// Each message counted once per root: the copy in the file whose first row is earliest, then the smallest path.
// Synthetic (harness-written) messages count only as synthetic_messages, in no denominator.
const REBUILD_ROOT_CELLS_SQL = `
      INSERT INTO root_cells (root_id, cell_id, assistant_messages, tool_use_turns, stop_known_messages, capture_messages, synthetic_messages)
      SELECT root_id, cell_id, count(*) - sum(synthetic), sum(tool_use_turn * (1 - synthetic)), sum(stop_known * (1 - synthetic)),
             sum(capture * (1 - synthetic)), sum(synthetic)
      FROM (
        SELECT f.root_id, m.cell_id, m.tool_use_turn, m.stop_known, m.capture, m.synthetic,
               row_number() OVER (PARTITION BY f.root_id, m.message_hash
                                  ORDER BY f.first_row_ms IS NULL, f.first_row_ms, f.rel_path) AS copy_rank
        FROM messages m JOIN files f ON f.id = m.file_id
      )
      WHERE copy_rank = 1
      GROUP BY root_id, cell_id`;
const COUNT_ALL_FINDINGS_SQL = 'UPDATE findings SET counted = 1';
// A finding counts when its file holds the counted copy of its message (as above); a
// finding whose message is not among the messages (none today) stays counted.
const MARK_COUNTED_FINDINGS_SQL = `
      UPDATE findings SET counted = (findings.file_id = first_copy.file_id)
      FROM (
        SELECT root_id, message_hash, file_id FROM (
          SELECT f.root_id, m.message_hash, m.file_id,
                 row_number() OVER (PARTITION BY f.root_id, m.message_hash
                                    ORDER BY f.first_row_ms IS NULL, f.first_row_ms, f.rel_path) AS copy_rank
          FROM messages m JOIN files f ON f.id = m.file_id
          WHERE m.message_hash IN (SELECT message_hash FROM findings)
        )
        WHERE copy_rank = 1
      ) AS first_copy
      WHERE first_copy.message_hash = findings.message_hash
        AND first_copy.root_id = (SELECT root_id FROM files WHERE id = findings.file_id)`;

/**
 * The denominator rebuild (store/index-store.ts, rebuildDenominatorsIfNeeded) as SQL alone, for a
 * second connection in a worker thread (denominators-off-thread.ts): `needed` says whether any
 * transaction changed rows since the last rebuild (or an older build set the dirty flag), the
 * steps are the same statements as the ones prepared below, then the flag is cleared and the
 * generation rebuilt from recorded.
 */
export const DENOMINATOR_REBUILD = {
  needed: `SELECT coalesce((SELECT value FROM meta WHERE key = 'root_cells_dirty'), '0') = '1'
            OR coalesce((SELECT value FROM meta WHERE key = 'rows_generation'), '0')
               <> coalesce((SELECT value FROM meta WHERE key = 'root_cells_generation'), '0') AS needed`,
  steps: [
    CLEAR_ROOT_CELLS_SQL,
    REBUILD_ROOT_CELLS_SQL,
    COUNT_ALL_FINDINGS_SQL,
    MARK_COUNTED_FINDINGS_SQL,
    `INSERT INTO meta (key, value) VALUES ('root_cells_dirty', '0') ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    `INSERT INTO meta (key, value) VALUES ('root_cells_generation', coalesce((SELECT value FROM meta WHERE key = 'rows_generation'), '0'))
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ],
} as const;

/** Every statement the indexer runs, prepared once and named for what it does. */
export function prepareIndexStatements(db: Db) {
  return {
    // A folder removed with its history kept (migration 017) is neither indexed nor watched: rootById and allRoots leave it out.
    rootById: db.prepare<[number], RootRow>('SELECT id, path, label, added_at, last_scan_at, salvage FROM roots WHERE id = ? AND removed_ms IS NULL'),
    rootByPath: db.prepare<[string], RootRow & { removed_ms: number | null }>(
      'SELECT id, path, label, added_at, last_scan_at, salvage, removed_ms FROM roots WHERE path = ?',
    ),
    allRoots: db.prepare<[], RootRow>('SELECT id, path, label, added_at, last_scan_at, salvage FROM roots WHERE removed_ms IS NULL ORDER BY id'),
    // Every folder, removed ones too: a new folder may not overlap a removed one whose history is kept.
    everyRootPath: db.prepare<[], { path: string }>('SELECT path FROM roots'),
    restoreRoot: db.prepare<[number]>('UPDATE roots SET removed_ms = NULL WHERE id = ?'),
    labelTaken: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM roots WHERE label = ?'),
    insertRoot: db.prepare<[string, string, string], { id: number }>('INSERT INTO roots (path, label, added_at) VALUES (?, ?, ?) RETURNING id'),
    touchRoot: db.prepare<[string, number]>('UPDATE roots SET last_scan_at = ? WHERE id = ?'),
    // The fingerprint is stored as its 16 bytes (migration 015); the planner compares hex.
    filesOfRoot: db.prepare<[number], FileRow>(
      'SELECT id, rel_path, size, mtime_ms, lower(hex(fingerprint)) AS fingerprint, status, findings, gone_ms IS NOT NULL AS gone FROM files WHERE root_id = ?',
    ),
    // The same, a page at a time in id order (an index run yields between pages).
    filesOfRootPage: db.prepare<[number, number, number], FileRow>(
      'SELECT id, rel_path, size, mtime_ms, lower(hex(fingerprint)) AS fingerprint, status, findings, gone_ms IS NOT NULL AS gone FROM files WHERE root_id = ? AND id > ? ORDER BY id LIMIT ?',
    ),
    // OpenCode's databases (migration 026): what each looked like at the last run that read it.
    databaseSource: db.prepare<[number, string], { state: string; sessions: number }>(
      'SELECT state, sessions FROM database_sources WHERE root_id = ? AND rel_path = ?',
    ),
    saveDatabaseSource: db.prepare<[number, string, string, number]>(
      'INSERT INTO database_sources (root_id, rel_path, state, sessions) VALUES (?, ?, ?, ?) ON CONFLICT (root_id, rel_path) DO UPDATE SET state = excluded.state, sessions = excluded.sessions',
    ),
    forgetDatabaseSource: db.prepare<[number, string]>('DELETE FROM database_sources WHERE root_id = ? AND rel_path = ?'),
    // The whole row in one statement: the salvage label, a capture's terminal reason and the session end too (they
    // were separate updates, and a file that later failed kept an earlier read's). The session end's class by its id
    // in session_end_kinds (a test checks that table holds every name of shared/session-ends.ts).
    upsertFile: db.prepare<
      {
        root_id: number;
        rel_path: string;
        size: number;
        mtime_ms: number;
        fingerprint: string;
        status: string;
        error_code: string | null;
        error_line: number | null;
        first_row_ms: number | null;
        row_span_ms: number | null;
        session_hash: string | null;
        sidechain: number;
        assistant_messages: number;
        findings: number;
        indexed_ms: number;
        format: string | null;
        salvaged: number;
        damage: string | null;
        terminal_reason: string | null;
        session_end: string | null;
        session_end_cell: number | null;
        format_hint: string | null;
        empty: number;
        agent: string | null;
        agent_version: string | null;
        model_messages: number;
        tool_calls: number;
        tool_results: number;
      },
      { id: number }
    >(`INSERT INTO files (root_id, path_hash, rel_path, size, mtime_ms, fingerprint, status, error_code, error_line, first_row_ms,
                          row_span_ms, session_hash, sidechain, assistant_messages, findings, indexed_ms, format, salvaged, damage,
                          terminal_reason, session_end_kind, session_end_cell, format_hint, empty,
                          agent, agent_version, model_messages, tool_calls, tool_results)
       VALUES (@root_id, path_hash(@rel_path), @rel_path, @size, @mtime_ms, unhex(@fingerprint), @status, @error_code, @error_line, @first_row_ms,
               @row_span_ms, unhex(@session_hash), @sidechain, @assistant_messages, @findings, @indexed_ms, @format, @salvaged, @damage,
               @terminal_reason, (SELECT id FROM session_end_kinds WHERE name = @session_end), @session_end_cell, @format_hint, @empty,
               @agent, @agent_version, @model_messages, @tool_calls, @tool_results)
       ON CONFLICT (root_id, path_hash) DO UPDATE SET
         size = excluded.size, mtime_ms = excluded.mtime_ms, fingerprint = excluded.fingerprint, status = excluded.status,
         error_code = excluded.error_code, error_line = excluded.error_line, first_row_ms = excluded.first_row_ms,
         row_span_ms = excluded.row_span_ms, session_hash = excluded.session_hash, sidechain = excluded.sidechain,
         assistant_messages = excluded.assistant_messages, findings = excluded.findings, indexed_ms = excluded.indexed_ms,
         format = excluded.format, salvaged = excluded.salvaged, damage = excluded.damage, terminal_reason = excluded.terminal_reason,
         session_end_kind = excluded.session_end_kind, session_end_cell = excluded.session_end_cell,
         format_hint = excluded.format_hint, empty = excluded.empty, agent = excluded.agent, agent_version = excluded.agent_version,
         model_messages = excluded.model_messages, tool_calls = excluded.tool_calls, tool_results = excluded.tool_results, gone_ms = NULL
       WHERE files.rel_path = excluded.rel_path
       RETURNING id`),
    deleteMessagesOfFile: db.prepare<[number]>('DELETE FROM messages WHERE file_id = ?'),
    deleteFindingsOfFile: db.prepare<[number]>('DELETE FROM findings WHERE file_id = ?'),
    deleteFile: db.prepare<[number]>('DELETE FROM files WHERE id = ?'),
    // A file no longer on disk keeps its rows (migration 017): last seen at its last read or its folder's last
    // finished run (the run now finding it gone has not finished), whichever is later. A file already gone keeps the time it was first found gone.
    markFileGone: db.prepare<[number]>(
      `UPDATE files SET gone_ms = max(indexed_ms, coalesce((SELECT CAST(unixepoch(last_scan_at, 'subsec') * 1000 AS INTEGER) FROM roots
                                                            WHERE roots.id = files.root_id), 0))
       WHERE id = ? AND gone_ms IS NULL`,
    ),
    // A gone file back on disk with the same size and fingerprint: present again, not read again (its mtime may differ).
    markFileBack: db.prepare<{ id: number; mtime_ms: number }>('UPDATE files SET gone_ms = NULL, mtime_ms = @mtime_ms WHERE id = @id'),
    deleteDiagnosticsOfFile: db.prepare<[number]>('DELETE FROM file_diagnostics WHERE file_id = ?'),
    insertDiagnostics: db.prepare<[number, string, number, number, string | null, string | null, number, number, string | null, string | null]>(
      `INSERT INTO file_diagnostics (file_id, version, text_rows, tool_use_rows, unknown_row_types, unknown_block_types,
                                     compaction_splits, calls_open_at_end, rejected_tool_input, unknown_system_subtypes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    cellId: db.prepare<[string, string, string, number, string, string], { id: number }>(
      'SELECT id FROM cells WHERE day = ? AND version = ? AND model = ? AND sidechain = ? AND effort = ? AND agent = ?',
    ),
    insertCell: db.prepare<[string, string, string, number, string, string], { id: number }>(
      'INSERT INTO cells (day, version, model, sidechain, effort, agent) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
    ),
    // How the file's turns ended (migration 018): the class by its id in turn_end_kinds.
    insertTurnEnds: db.prepare<[number, number, string, string, number, number]>(
      `INSERT INTO turn_ends (file_id, cell_id, kind, api_error_kind, last, turns)
       VALUES (?, ?, (SELECT id FROM turn_end_kinds WHERE name = ?), ?, ?, ?)`,
    ),
    deleteTurnEndsOfFile: db.prepare<[number]>('DELETE FROM turn_ends WHERE file_id = ?'),
    insertMessage: db.prepare<[number, bigint, number, number, number, number, number]>(
      // A message id repeated inside one file is one message: the first row keeps it.
      'INSERT OR IGNORE INTO messages (file_id, message_hash, cell_id, tool_use_turn, stop_known, capture, synthetic) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    insertFinding: db.prepare<{
      file_id: number;
      code: string;
      first_line: number;
      last_line: number;
      source_lines: string;
      evidence_sha256: string;
      cell_id: number;
      block_types: string;
      signed_thinking: number;
      message_hash: bigint;
      details: string;
    }>(`INSERT INTO findings (file_id, code, first_line, last_line, source_lines, evidence_sha256, cell_id, block_types,
                             signed_thinking, message_hash, details)
        VALUES (@file_id, @code, @first_line, @last_line, @source_lines, @evidence_sha256, @cell_id, @block_types,
                @signed_thinking, @message_hash, @details)`),
    // How the session's last turn ended (migration 008); all null for failed, in-progress and capture files.
    getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    startIndexRun: db.prepare<[number | null, string], { id: number }>(
      "INSERT INTO index_runs (root_id, started_at, status) VALUES (?, ?, 'running') RETURNING id",
    ),
    interruptStaleIndexRuns: db.prepare<[]>("UPDATE index_runs SET status = 'interrupted' WHERE status = 'running'"),
    finishIndexRun: db.prepare<{
      id: number;
      finished_at: string;
      duration_ms: number;
      status: string;
      files_seen: number;
      files_changed: number;
      files_removed: number;
      files_failed: number;
      bytes_read: number;
      findings_added: number;
      findings_removed: number;
    }>(`UPDATE index_runs SET finished_at = @finished_at, duration_ms = @duration_ms, status = @status, files_seen = @files_seen,
          files_changed = @files_changed, files_removed = @files_removed, files_failed = @files_failed,
          bytes_read = @bytes_read, findings_added = @findings_added, findings_removed = @findings_removed
        WHERE id = @id`),
    clearRootCells: db.prepare<[]>(CLEAR_ROOT_CELLS_SQL),
    rebuildRootCells: db.prepare<[]>(REBUILD_ROOT_CELLS_SQL),
    // A finding counts when its file holds the counted copy of its message (as above); a
    // finding whose message is not among the messages (none today) stays counted.
    countAllFindings: db.prepare<[]>(COUNT_ALL_FINDINGS_SQL),
    markCountedFindings: db.prepare<[]>(MARK_COUNTED_FINDINGS_SQL),
  };
}

export type IndexStatements = ReturnType<typeof prepareIndexStatements>;
