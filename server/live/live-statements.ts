import type { Db } from '../store/database';

/** The statements the live update runs besides the full index's own, prepared once and named. */
export function prepareLiveStatements(db: Db) {
  return {
    // Found through the unique (root_id, path_hash) index (migration 016); the path itself is checked too.
    fileIdByPath: db.prepare<{ root_id: number; rel_path: string }, { id: number }>(
      'SELECT id FROM files WHERE root_id = @root_id AND path_hash = path_hash(@rel_path) AND rel_path = @rel_path',
    ),
    findingKeysOfFile: db.prepare<[number], { id: number; code: string; first_line: number; last_line: number; evidence_sha256: string }>(
      'SELECT id, code, first_line, last_line, evidence_sha256 FROM findings WHERE file_id = ?',
    ),
    // What the watcher's reconciliation compares with a stat walk (watch-folders.ts): no content, no findings.
    reconcileRows: db.prepare<
      [number],
      { rel_path: string; size: number; mtime_ms: number; status: string; error_code: string | null; indexed_ms: number; gone: number }
    >('SELECT rel_path, size, mtime_ms, status, error_code, indexed_ms, gone_ms IS NOT NULL AS gone FROM files WHERE root_id = ?'),
  };
}

export type LiveStatements = ReturnType<typeof prepareLiveStatements>;
