import type { Db } from '../store/database';
import { tryAcquireIndexLock } from '../store/index-lock';
import { type TeamMachineRow, teamStatements } from './team-statements';

/** One machine's aggregates, already read and checked (see server/team/aggregate-format.ts). */
export interface TeamMachineAggregates {
  machine: Omit<TeamMachineRow, 'imported_at'>;
  cells: Array<{
    day: string;
    version: string;
    model: string;
    sidechain: 0 | 1;
    assistant_messages: number;
    tool_use_turns: number;
    stop_known_messages: number;
    capture_messages: number;
    synthetic_messages: number;
    /** Per code with at least one counted finding: the findings, the sessions holding them, and the findings capped per session. */
    findings: Record<string, TeamFindingCounts>;
  }>;
}

export interface TeamFindingCounts {
  findings: number;
  sessions: number;
  capped_findings: number;
}

export class TeamImportError extends Error {}

/**
 * Writes several machines' aggregates in one transaction: a machine already imported has its
 * rows replaced (never added to), and any failure leaves the database as it was. Refuses a
 * database that holds a local index: the team's sums would count this machine's messages twice
 * as soon as its own export is among the files.
 *
 * Takes the database's index lock first and refuses (IndexBusyError) while an index run holds
 * it: that run may be adding folders, which the check above must see. The write is one
 * BEGIN IMMEDIATE transaction (it takes the write lock before reading), as every write is.
 */
export function writeTeamAggregates(db: Db, machines: readonly TeamMachineAggregates[], importedAt: string): void {
  const st = teamStatements(db);
  const cellIds = new Map<string, number>();
  const cellIdOf = (day: string, version: string, model: string, sidechain: number) => {
    const key = `${day}\u0000${version}\u0000${model}\u0000${sidechain}`;
    let id = cellIds.get(key);
    if (id === undefined) {
      id = st.cellId.get(day, version, model, sidechain)?.id ?? st.insertCell.get(day, version, model, sidechain)!.id;
      cellIds.set(key, id);
    }
    return id;
  };
  const lock = tryAcquireIndexLock(db);
  try {
    db.transaction(() => {
      if (st.localRoots.get()!.n > 0) {
        throw new TeamImportError(
          'this database holds a local index (it has folders); import team aggregates into a database of their own (the default team database, or --db team.db)',
        );
      }
      for (const m of machines) {
        st.deleteMachine.run(m.machine.machine);
        const machineId = st.insertMachine.get({ ...m.machine, imported_at: importedAt })!.id;
        for (const c of m.cells) {
          const cellId = cellIdOf(c.day, c.version, c.model, c.sidechain);
          st.insertTeamCell.run({
            machine_id: machineId,
            cell_id: cellId,
            assistant_messages: c.assistant_messages,
            tool_use_turns: c.tool_use_turns,
            stop_known_messages: c.stop_known_messages,
            capture_messages: c.capture_messages,
            synthetic_messages: c.synthetic_messages,
          });
          for (const [code, counts] of Object.entries(c.findings)) st.insertTeamFinding.run({ machine_id: machineId, cell_id: cellId, code, ...counts });
        }
      }
    }).immediate();
  } finally {
    lock.release();
  }
}

/** The machines a team database holds, for the import summary. */
export function teamMachines(db: Db): TeamMachineRow[] {
  return teamStatements(db).machines.all();
}
