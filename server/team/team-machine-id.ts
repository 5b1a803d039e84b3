import { randomBytes } from 'node:crypto';
import type { Db } from '../store/database';
import { teamStatements } from './team-statements';

const KEY = 'machine_id';

/** A machine name that may leave this machine: letters, digits, dot, dash, underscore; 1–64, starting with a letter or digit. */
export const MACHINE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class MachineNameError extends Error {}

export interface MachineId {
  machine: string;
  /** The id stored before, when `chosen` replaced a different one. */
  replaced: string | null;
}

/**
 * The pseudonymous id under which this index's aggregates leave the machine. `chosen` (from
 * `--machine`) is checked and stored; without it the stored id is used, or a random one is made
 * once (`machine-` and 12 hex digits) and stored in the meta table. The only write is that one row.
 */
export function machineId(db: Db, chosen?: string): MachineId {
  if (chosen !== undefined && !MACHINE_PATTERN.test(chosen)) {
    throw new MachineNameError('--machine takes 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit');
  }
  const st = teamStatements(db);
  // Read and write in one BEGIN IMMEDIATE transaction: two exports started together make one id.
  return db
    .transaction(() => {
      const stored = st.getMeta.get(KEY)?.value ?? null;
      if (chosen !== undefined) {
        if (stored !== chosen) st.setMeta.run(KEY, chosen);
        return { machine: chosen, replaced: stored !== null && stored !== chosen ? stored : null };
      }
      if (stored !== null) return { machine: stored, replaced: null };
      const made = `machine-${randomBytes(6).toString('hex')}`;
      st.setMeta.run(KEY, made);
      return { machine: made, replaced: null };
    })
    .immediate();
}
