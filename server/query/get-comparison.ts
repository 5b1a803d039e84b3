import type { CompareResponse } from '../../shared/api-schemas';
import { DayPattern } from '../../shared/api-schemas';
import { FINDING_OPPORTUNITY, isFindingCode } from '../../shared/finding-codes';
import { fisherExact, rateRatio } from '../../shared/statistics';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { getRates, sideFigures } from './get-rates';
import { getSummary } from './get-summary';
import type { RateFilters } from './rate-filters';

export class BadSideError extends Error {}

export const COMPARE_METHOD =
  "Denominator: each code's own opportunities (tool-use turns, messages with a recorded stop reason, model messages or " +
  'stream-capture messages). Rates per 1,000 with 95% Wilson intervals; rate ratio b/a with a 95% interval on the log scale ' +
  '(Katz; 0.5 added to every cell when a count is 0); p-value: two-sided Fisher exact test on findings against opportunities without one. ' +
  'Where a side has no opportunities for a code, that side is not measurable and there is no ratio and no p-value.';

const DAY = new RegExp(DayPattern.slice(1, -1));

interface Side {
  spec: string;
  kind: 'versions' | 'days';
  versions: string[];
  from: string | null;
  to: string | null;
}

/** `2026-05-01..2026-05-28` (days), `2.1.36..2.1.39` (versions, inclusive, semantic order) or `2.1.39,2.1.40`. */
export function parseSide(spec: string, knownVersions: readonly string[]): Side {
  const range = spec.split('..');
  if (range.length === 2 && DAY.test(range[0]!) && DAY.test(range[1]!)) {
    const [from, to] = range[0]! <= range[1]! ? [range[0]!, range[1]!] : [range[1]!, range[0]!];
    return { spec, kind: 'days', versions: [], from, to };
  }
  if (range.length === 2) {
    const [lo, hi] = [range[0]!, range[1]!].sort(compareVersions);
    const versions = knownVersions.filter((v) => compareVersions(v, lo!) >= 0 && compareVersions(v, hi!) <= 0);
    if (versions.length === 0) throw new BadSideError(`no indexed version lies in ${spec}`);
    return { spec, kind: 'versions', versions, from: null, to: null };
  }
  if (range.length !== 1) throw new BadSideError(`cannot read the side ${spec}`);
  const versions = spec.split(',').filter(Boolean);
  if (versions.length === 0) throw new BadSideError('an empty side');
  return { spec, kind: 'versions', versions, from: null, to: null };
}

/** Two sides (versions or day ranges) side by side: rates, their ratio with an interval, and Fisher's p. */
export function getComparison(db: Db, a: string, b: string, common: RateFilters): CompareResponse {
  const known = getRates(db, 'version', { ...common, codes: [] }).flatMap((r) => (r.key ? [r.key] : []));
  const sides = [parseSide(a, known), parseSide(b, known)] as const;
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
  });
  return {
    a: side(sides[0], sa),
    b: side(sides[1], sb),
    method: COMPARE_METHOD,
    codes: sa.codes.map((ca) => {
      const cb = sb.codes.find((c) => c.code === ca.code);
      const opportunity = isFindingCode(ca.code) ? FINDING_OPPORTUNITY[ca.code] : 'tool_use_turns';
      const [ka, na] = [ca.count, ca.opportunities];
      const [kb, nb] = [cb?.count ?? 0, cb?.opportunities ?? 0];
      return {
        code: ca.code,
        a: sideFigures(opportunity, ka, na, sa.tool_use_turns),
        b: sideFigures(opportunity, kb, nb, sb.tool_use_turns),
        rate_ratio: rateRatio(kb, nb, ka, na),
        p_value: na > 0 && nb > 0 ? fisherExact(kb, Math.max(0, nb - kb), ka, Math.max(0, na - ka)).twoSided : null,
      };
    }),
  };
}
