import { DETECTOR_DEFINITIONS_VERSION } from '../../shared/finding-codes';
import type { Db } from '../store/database';
import { readAggregateFile } from './aggregate-files';
import { AggregateFileError, toMachineAggregates } from './aggregate-format';
import { type TeamMachineAggregates, teamMachines, writeTeamAggregates } from './team-import';
import type { TeamMachineRow } from './team-statements';

export interface ImportSummary {
  /** Machines in these files, and whether each replaced rows imported before. */
  imported: Array<{ machine: string; cells: number; findings: number; replaced: boolean }>;
  /** Every machine the team database now holds. */
  machines: TeamMachineRow[];
}

/**
 * Reads and checks every file first; then writes them all in one transaction, or nothing.
 * A machine named by two of these files is an error (which one is right?); a machine imported
 * before has its rows replaced. Files whose detector definitions differ from this build's are
 * refused unless `mixedDefinitions`: their counts follow other rules.
 */
export async function importAggregateFiles(db: Db, paths: readonly string[], options: { mixedDefinitions?: boolean; now?: Date } = {}): Promise<ImportSummary> {
  if (paths.length === 0) throw new AggregateFileError('no aggregate file given');
  const machines: TeamMachineAggregates[] = [];
  const fileOf = new Map<string, number>();
  for (const [i, path] of paths.entries()) {
    const where = `aggregate file ${i + 1}`;
    const m = toMachineAggregates(await readAggregateFile(path, where), where);
    const earlier = fileOf.get(m.machine.machine);
    if (earlier !== undefined)
      throw new AggregateFileError(`aggregate files ${earlier} and ${i + 1} are both from machine ${m.machine.machine}: import one of them`);
    fileOf.set(m.machine.machine, i + 1);
    if (m.machine.detector_definitions_version !== DETECTOR_DEFINITIONS_VERSION && !options.mixedDefinitions) {
      throw new AggregateFileError(
        `${where}: counted with detector definitions v${m.machine.detector_definitions_version}, this build has v${DETECTOR_DEFINITIONS_VERSION}; ` +
          're-export on that machine with this version, or pass --mixed-definitions to sum them anyway',
      );
    }
    machines.push(m);
  }
  const before = new Set(teamMachines(db).map((m) => m.machine));
  writeTeamAggregates(db, machines, (options.now ?? new Date()).toISOString());
  return {
    imported: machines.map((m) => ({
      machine: m.machine.machine,
      cells: m.cells.length,
      findings: m.cells.reduce((n, c) => n + Object.values(c.findings).reduce((a, b) => a + b.findings, 0), 0),
      replaced: before.has(m.machine.machine),
    })),
    machines: teamMachines(db),
  };
}
