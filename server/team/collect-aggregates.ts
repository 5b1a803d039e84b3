import type { Db } from '../store/database';
import { type Aggregates, buildAggregates } from './aggregate-format';
import { getAggregateFacts } from './get-aggregate-facts';
import { type MachineId, machineId } from './team-machine-id';

/** This machine's aggregates under its pseudonymous id (chosen, stored, or made once). */
export function collectAggregates(db: Db, options: { machine?: string; toolVersion: string; now?: Date }): { aggregates: Aggregates; id: MachineId } {
  const id = machineId(db, options.machine);
  const aggregates = buildAggregates(getAggregateFacts(db), id.machine, options.toolVersion, (options.now ?? new Date()).toISOString());
  return { aggregates, id };
}
