import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';

/**
 * Where `import-aggregates` writes unless `--db` says otherwise: a database of its own beside the
 * index ($XDG_DATA_HOME or ~/.local/share, /tool-call-forensics/team.db), so a machine's local
 * index and the team's sums never share one (its own export would count its messages twice).
 */
export function teamDbPath(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'tool-call-forensics', 'team.db');
}

export interface TeamMachineRow {
  machine: string;
  schema_version: number;
  detector_definitions_version: number;
  tool_version: string;
  exported_at: string;
  imported_at: string;
  files_ok: number;
  files_damaged: number;
  files_excluded: number;
}

/** Every statement the team import and the machine id run, prepared once and named for what it does. */
export function prepareTeamStatements(db: Db) {
  return {
    localRoots: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM roots'),
    machines: db.prepare<[], TeamMachineRow>(`
      SELECT machine, schema_version, detector_definitions_version, tool_version, exported_at, imported_at,
             files_ok, files_damaged, files_excluded
      FROM team_machines ORDER BY machine`),
    deleteMachine: db.prepare<[string]>('DELETE FROM team_machines WHERE machine = ?'),
    insertMachine: db.prepare<TeamMachineRow, { id: number }>(`
      INSERT INTO team_machines (machine, schema_version, detector_definitions_version, tool_version, exported_at, imported_at,
                                 files_ok, files_damaged, files_excluded)
      VALUES (@machine, @schema_version, @detector_definitions_version, @tool_version, @exported_at, @imported_at,
              @files_ok, @files_damaged, @files_excluded)
      RETURNING id`),
    cellId: db.prepare<[string, string, string, number], { id: number }>(
      "SELECT id FROM cells WHERE day = ? AND version = ? AND model = ? AND sidechain = ? AND effort = ''",
    ),
    insertCell: db.prepare<[string, string, string, number], { id: number }>(
      'INSERT INTO cells (day, version, model, sidechain) VALUES (?, ?, ?, ?) RETURNING id',
    ),
    insertTeamCell: db.prepare<{
      machine_id: number;
      cell_id: number;
      assistant_messages: number;
      tool_use_turns: number;
      stop_known_messages: number;
      capture_messages: number;
      synthetic_messages: number;
    }>(`INSERT INTO team_cells (machine_id, cell_id, assistant_messages, tool_use_turns, stop_known_messages, capture_messages, synthetic_messages)
        VALUES (@machine_id, @cell_id, @assistant_messages, @tool_use_turns, @stop_known_messages, @capture_messages, @synthetic_messages)`),
    insertTeamFinding: db.prepare<{ machine_id: number; cell_id: number; code: string; findings: number; sessions: number; capped_findings: number }>(
      `INSERT INTO team_findings (machine_id, cell_id, code, findings, sessions, capped_findings)
       VALUES (@machine_id, @cell_id, @code, @findings, @sessions, @capped_findings)`,
    ),
    getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
  };
}

export type TeamStatements = ReturnType<typeof prepareTeamStatements>;

export function teamStatements(db: Db): TeamStatements {
  return prepared(db, prepareTeamStatements);
}
