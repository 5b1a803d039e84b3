import type { CompareResponse } from '../../shared/api-schemas';
import { DayPattern } from '../../shared/api-schemas';
import { opportunityOf } from '../../shared/denominators';
import { fisherExact, rateRatio } from '../../shared/statistics';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { getRates, sideFigures } from './get-rates';
import { getSummary } from './get-summary';
import type { RateFilters } from './rate-filters';

/** A side that cannot be compared honestly; `code` says which rule it broke. */
export class BadSideError extends Error {
  constructor(
    message: string,
    readonly code: 'bad_side' | 'unknown_version' | 'reversed_range' | 'overlapping_sides' | 'mixed_sides' | 'empty_side' = 'bad_side',
  ) {
    super(message);
  }
}

export const COMPARE_METHOD =
  "Denominator: each code's own opportunities (tool-use turns, messages with a recorded stop reason, model messages or " +
  'stream-capture messages). Rates per 1,000 with 95% Wilson intervals; rate ratio b/a with a 95% interval on the log scale ' +
  '(Katz; 0.5 added to every cell when a count is 0); p-value: two-sided Fisher exact test on findings against opportunities without one. ' +
  'Where a side has no opportunities for a code, that side is not measurable and there is no ratio and no p-value.' +
  ' No ratio and no p-value when neither side has a finding of the code.';

const DAY = new RegExp(DayPattern.slice(1, -1));
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

export interface Side {
  spec: string;
  kind: 'versions' | 'days';
  versions: string[];
  from: string | null;
  to: string | null;
}

const realDay = (d: string) => DAY.test(d) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;
const span = (known: readonly string[]) => (known.length ? `indexed versions run ${known[0]}–${known[known.length - 1]}` : 'no version is indexed');

/**
 * `2026-05-01..2026-05-28` (days), `2.1.36..2.1.39` (versions, inclusive, semantic order) or `2.1.39,2.1.40`.
 * Refuses what would compare something other than what was typed: unknown versions in a list, reversed
 * ranges, impossible days, and ranges holding no indexed version or day. A range's ends need not be
 * indexed: it takes the indexed versions or days within.
 */
export function parseSide(spec: string, knownVersions: readonly string[], knownDays: readonly string[] = []): Side {
  const range = spec.split('..');
  if (range.length > 2) throw new BadSideError(`cannot read "${spec}": use one ".." between two versions or two days`);
  if (range.length === 2) {
    const [lo, hi] = [range[0]!, range[1]!];
    if (DAY.test(lo) || DAY.test(hi)) {
      for (const d of [lo, hi]) if (!realDay(d)) throw new BadSideError(`"${d}" is not a day (YYYY-MM-DD)`);
      if (lo > hi) throw new BadSideError(`"${spec}" is reversed: the first day is after the last (did you mean ${hi}..${lo}?)`, 'reversed_range');
      if (knownDays.length && !knownDays.some((d) => d >= lo && d <= hi))
        throw new BadSideError(`no indexed day lies in ${spec} (indexed days run ${knownDays[0]}–${knownDays[knownDays.length - 1]})`, 'empty_side');
      return { spec, kind: 'days', versions: [], from: lo, to: hi };
    }
    // A range's ends need only be versions: it takes the indexed versions within (2.1.150..2.1.200
    // works when 2.1.200 was never indexed), like a day range; a range holding none is refused.
    for (const v of [lo, hi]) if (!VERSION.test(v)) throw new BadSideError(`"${v}" is not a version (like 2.1.40)`);
    if (compareVersions(lo, hi) > 0) throw new BadSideError(`"${spec}" is reversed: ${lo} comes after ${hi} (did you mean ${hi}..${lo}?)`, 'reversed_range');
    const versions = knownVersions.filter((v) => compareVersions(v, lo) >= 0 && compareVersions(v, hi) <= 0);
    if (versions.length === 0) throw new BadSideError(`no indexed version lies in ${spec} (${span(knownVersions)})`, 'empty_side');
    return { spec, kind: 'versions', versions, from: null, to: null };
  }
  const versions = spec.split(',').filter(Boolean);
  if (versions.length === 0) throw new BadSideError('an empty side: pick versions or days', 'empty_side');
  for (const v of versions) {
    if (DAY.test(v)) throw new BadSideError(`"${v}": a day side is a range, like ${v}..${v}`);
    if (!VERSION.test(v)) throw new BadSideError(`"${v}" is not a version (like 2.1.40)`);
    if (!knownVersions.includes(v)) throw new BadSideError(`version ${v} is not in the index (${span(knownVersions)})`, 'unknown_version');
  }
  return { spec, kind: 'versions', versions: [...new Set(versions)].sort(compareVersions), from: null, to: null };
}

/** Two sides must be of one kind and share nothing, or one message could count on both. */
export function checkSides(a: Side, b: Side): void {
  if (a.kind !== b.kind) throw new BadSideError('compare versions with versions, or days with days', 'mixed_sides');
  if (a.kind === 'versions') {
    const shared = a.versions.filter((v) => b.versions.includes(v));
    if (shared.length)
      throw new BadSideError(`the sides overlap: ${shared.slice(0, 3).join(', ')}${shared.length > 3 ? '…' : ''} on both`, 'overlapping_sides');
  } else if (a.from! <= b.to! && b.from! <= a.to!) {
    throw new BadSideError(`the sides overlap: ${[a.from!, b.from!].sort()[1]}–${[a.to!, b.to!].sort()[0]} is on both`, 'overlapping_sides');
  }
}

/** Two sides (versions or day ranges) side by side: rates, their ratio with an interval, and Fisher's p. */
export function getComparison(db: Db, a: string, b: string, common: RateFilters): CompareResponse {
  const known = getRates(db, 'version', { ...common, codes: [] }).flatMap((r) => (r.key ? [r.key] : []));
  const days = getRates(db, 'day', { ...common, codes: [] }).flatMap((r) => (r.key ? [r.key] : []));
  const sides = [parseSide(a, known, days), parseSide(b, known, days)] as const;
  checkSides(sides[0], sides[1]);
  const summaries = sides.map((s) => getSummary(db, { ...common, ...(s.kind === 'versions' ? { versions: s.versions } : { from: s.from!, to: s.to! }) }));
  const [sa, sb] = summaries as [ReturnType<typeof getSummary>, ReturnType<typeof getSummary>];
  const side = (s: Side, summary: ReturnType<typeof getSummary>) => ({
    ...s,
    assistant_messages: summary.assistant_messages,
    tool_use_turns: summary.tool_use_turns,
    stop_known_messages: summary.stop_known_messages,
    capture_messages: summary.capture_messages,
    synthetic_messages: summary.synthetic_messages,
    stop_reason_coverage: summary.stop_reason_coverage,
    first_day: summary.first_day,
    last_day: summary.last_day,
  });
  return {
    a: side(sides[0], sa),
    b: side(sides[1], sb),
    method: COMPARE_METHOD,
    rows: sa.codes.map((ca) => {
      const cb = sb.codes.find((c) => c.code === ca.code);
      const opportunity = opportunityOf(ca.code);
      const [ka, na] = [ca.count, ca.opportunities];
      const [kb, nb] = [cb?.count ?? 0, cb?.opportunities ?? 0];
      const none = ka + kb === 0;
      return {
        code: ca.code,
        a: sideFigures(opportunity, ka, na, sa.tool_use_turns),
        b: sideFigures(opportunity, kb, nb, sb.tool_use_turns),
        rate_ratio: none ? null : rateRatio(kb, nb, ka, na),
        p_value: !none && na > 0 && nb > 0 ? fisherExact(kb, Math.max(0, nb - kb), ka, Math.max(0, na - ka)).twoSided : null,
        no_findings: none,
      };
    }),
  };
}
