import { useState } from 'react';
import { useCompare, useRegressions, useSummary, useVersions } from '../../api/queries';
import { filtersFromSearch } from '../../lib/url-filters';
import { useUrlParams } from '../../lib/use-url-params';
import { parseSideText, sidesConflict } from './compare-sides';

/**
 * The two sides as typed (or from the address, or around the first change named), checked against the
 * versions and days indexed; only valid sides reach the address and the comparison.
 */
export function useCompareSides() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const versions = useVersions({});
  const summary = useSummary({});
  const regressions = useRegressions({});
  const known = (versions.data?.rows ?? []).flatMap((r) => (r.key ? [r.key] : []));
  const span = { first: summary.data?.first_day ?? null, last: summary.data?.last_day ?? null };
  // Until chosen, compare around the first change named (or the two halves of the versions).
  const card = regressions.data?.rows.find((c) => c.dimension === 'version' && c.strength !== 'insufficient');
  const defaults =
    card && known.length
      ? [`${known[0]}..${card.last_good}`, `${card.first_bad}..${known[known.length - 1]}`]
      : known.length > 1
        ? [`${known[0]}..${known[Math.floor(known.length / 2) - 1]}`, `${known[Math.floor(known.length / 2)]}..${known[known.length - 1]}`]
        : ['', ''];
  // What is typed stays as typed (an empty box stays empty); only valid sides reach the URL.
  const [typed, setTyped] = useState<{ a?: string; b?: string }>({});
  const a = typed.a ?? search.get('a') ?? defaults[0]!;
  const b = typed.b ?? search.get('b') ?? defaults[1]!;
  const ready = versions.data !== undefined && summary.data !== undefined;
  const pa = parseSideText(a, known, span);
  const pb = parseSideText(b, known, span);
  const errA = ready && 'error' in pa ? pa.error : null;
  const errB = ready && 'error' in pb ? pb.error : null;
  const conflict = ready && !('error' in pa) && !('error' in pb) ? sidesConflict(pa, pb) : null;
  const valid = ready && errA === null && errB === null && conflict === null;
  const compare = useCompare(valid ? a.trim() : '', valid ? b.trim() : '', filters);
  const set = (key: 'a' | 'b', value: string) => {
    setTyped((t) => ({ ...t, [key]: value }));
    const other = key === 'a' ? b : a;
    const mine = parseSideText(value, known, span);
    const theirs = parseSideText(other, known, span);
    if (!('error' in mine) && !('error' in theirs) && sidesConflict(mine, theirs) === null)
      setParams({ a: key === 'a' ? value.trim() : a.trim(), b: key === 'b' ? value.trim() : b.trim() });
  };
  const days = span.first && span.last ? [`${span.first}..${span.last}`] : [];
  return { filters, versions, known, span, days, a, b, errA, errB, conflict, valid, compare, set };
}
