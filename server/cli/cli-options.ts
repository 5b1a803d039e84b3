import { existsSync } from 'node:fs';
import { AGENTS } from '../../shared/agents';
import { FINDING_CODES, isFindingCode } from '../../shared/finding-codes';
import { safeModelId, safeVersion } from '../../shared/metadata-patterns';
import { MODEL_ID_MAX } from '../../shared/model-id';
import { getRates } from '../query/get-rates';
import type { RateFilters } from '../query/rate-filters';
import { type Db, describeDatabaseError, openDatabase, openDatabaseReadOnly } from '../store/database';
import { pseudonymSalt } from '../store/pseudonym-salt';
import { UsageError } from './usage-error';

/** The filters `report` and `export` share, as commander parsed them. */
export interface FilterOptions {
  code?: string[];
  version?: string[];
  model?: string[];
  from?: string;
  to?: string;
  sidechain?: string;
  agent?: string[];
}

/** A value as the user typed it, quoted and cut short, for a one-line message. */
export function quoted(value: string): string {
  const q = JSON.stringify(value);
  return q.length > 66 ? `${q.slice(0, 63)}…"` : q;
}

export function checkChoice(flag: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) throw new UsageError(`${flag} ${quoted(value)} is not one of: ${allowed.join(', ')}`);
}

function checkDay(flag: string, value: string | undefined): void {
  if (value === undefined) return;
  const real =
    /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
  if (!real) throw new UsageError(`${flag} ${quoted(value)} is not a UTC day: expected YYYY-MM-DD (a real date, e.g. 2026-05-01)`);
}

/**
 * Checks every filter value that needs no database: codes against the registry, --sidechain
 * against its two values, days as real calendar days (and --from not after --to), versions and
 * models against the patterns the scanner keeps.
 */
export function checkFilterOptions(o: FilterOptions): void {
  for (const code of o.code ?? []) {
    if (!isFindingCode(code)) throw new UsageError(`--code ${quoted(code)} is not a finding code; accepted: ${FINDING_CODES.join(', ')}`);
  }
  for (const v of o.version ?? []) {
    if (v !== 'unknown' && safeVersion(v) === null)
      throw new UsageError(`--version ${quoted(v)} is malformed: expected a Claude Code version like 2.1.40, or unknown`);
  }
  for (const m of o.model ?? []) {
    if (m !== 'unknown' && safeModelId(m) === null)
      throw new UsageError(
        `--model ${quoted(m)} is malformed: expected a model id (at most ${MODEL_ID_MAX} characters: a letter or digit, then letters, digits, '.', '_', '-', ':', '@', and '/' between two parts), or unknown`,
      );
  }
  if (o.sidechain !== undefined) checkChoice('--sidechain', o.sidechain, ['main', 'sidechain']);
  for (const a of o.agent ?? []) checkChoice('--agent', a, AGENTS);
  checkDay('--from', o.from);
  checkDay('--to', o.to);
  if (o.from && o.to && o.from > o.to) throw new UsageError(`--from ${o.from} is after --to ${o.to}`);
}

/** Versions and models must be ones the index holds (else the answer would be an empty report that looks clean). */
export function checkFilterValuesIn(db: Db, o: FilterOptions): void {
  const present = (dimension: 'version' | 'model') => getRates(db, dimension, { codes: [FINDING_CODES[0]] }).map((r) => r.key ?? 'unknown');
  for (const [flag, values, dimension] of [
    ['--version', o.version, 'version'],
    ['--model', o.model, 'model'],
  ] as const) {
    if (!values?.length) continue;
    const known = present(dimension);
    for (const v of values) {
      if (!known.includes(v)) {
        throw new UsageError(`${flag} ${quoted(v)} is not in the index; ${known.length > 0 ? `it holds: ${known.join(', ')}` : 'it holds no messages yet'}`);
      }
    }
  }
}

export function filtersOf(o: FilterOptions): RateFilters {
  return {
    codes: o.code,
    versions: o.version,
    models: o.model,
    from: o.from,
    to: o.to,
    sidechain: o.sidechain === undefined ? undefined : o.sidechain === 'sidechain',
    agents: o.agent,
  };
}

/**
 * The index for a command that only reads it: refused when it does not exist (such a command
 * never creates one) or is not an index; opened read-only.
 */
export function openExistingIndex(path: string, given: boolean): Db {
  const which = given ? '--db' : 'the default index (see --help)';
  if (!existsSync(path)) throw new UsageError(`${which}: no such index database (this command never creates one; run \`index <dir>\` first)`);
  try {
    return openDatabaseReadOnly(path);
  } catch (error) {
    // One line naming the flag, then what is wrong and what to do (database-errors.ts); never the path.
    const described = describeDatabaseError(error);
    if (described?.code === 'corrupt' || described?.code === 'cannot_open' || described?.code === 'future_schema')
      throw new UsageError(`${which}: not an index database this tool can read (${described.message})`);
    throw error;
  }
}

/**
 * The pseudonym salt is made once, on an index's first pseudonymized export: the one write a
 * read-only command may need, made through a second connection to the existing file.
 */
export function ensurePseudonymSalt(db: Db, path: string): void {
  try {
    pseudonymSalt(db);
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_READONLY') throw error;
    const writable = openDatabase(path);
    try {
      pseudonymSalt(writable);
    } finally {
      writable.close();
    }
  }
}
