import type { Db } from '../store/database';

/** The statements the live update runs besides the full index's own, prepared once and named. */
export function prepareLiveStatements(db: Db) {
  return {
    fileIdByPath: db.prepare<[number, string], { id: number }>('SELECT id FROM files WHERE root_id = ? AND rel_path = ?'),
    findingKeysOfFile: db.prepare<[number], { id: number; code: string; first_line: number; last_line: number; evidence_sha256: string }>(
      'SELECT id, code, first_line, last_line, evidence_sha256 FROM findings WHERE file_id = ?',
    ),
  };
}

export type LiveStatements = ReturnType<typeof prepareLiveStatements>;
