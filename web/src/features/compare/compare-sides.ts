import { compareVersions } from '../../../../shared/version-order';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const realDay = (d: string) => DAY.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

export type ParsedSide = { kind: 'versions'; versions: string[] } | { kind: 'days'; from: string; to: string };

/**
 * A side typed by hand, read the way the server reads it, so the page can say what is wrong
 * before asking: unknown versions, garbled or reversed ranges, ranges holding no indexed version or day.
 */
export function parseSideText(
  spec: string,
  known: readonly string[],
  span: { first: string | null; last: string | null } = { first: null, last: null },
): ParsedSide | { error: string } {
  const text = spec.trim();
  if (text === '') return { error: 'empty: pick versions or days' };
  const range = text.split('..');
  if (range.length > 2) return { error: `cannot read "${text}": use one ".." between two versions or two days` };
  if (range.length === 2) {
    const [lo, hi] = range as [string, string];
    if (DAY.test(lo) || DAY.test(hi)) {
      for (const d of [lo, hi]) if (!realDay(d)) return { error: `"${d}" is not a day (YYYY-MM-DD)` };
      if (lo > hi) return { error: `reversed: ${lo} is after ${hi} (did you mean ${hi}..${lo}?)` };
      if (span.first && span.last && (hi < span.first || lo > span.last))
        return { error: `no indexed day in ${text} (indexed: ${span.first} to ${span.last})` };
      return { kind: 'days', from: lo, to: hi };
    }
    // The ends need only be versions: the range takes the indexed versions within, as the server does.
    for (const v of [lo, hi]) if (!VERSION.test(v)) return { error: `"${v}" is not a version (like 2.1.40)` };
    if (compareVersions(lo, hi) > 0) return { error: `reversed: ${lo} comes after ${hi} (did you mean ${hi}..${lo}?)` };
    const versions = known.filter((v) => compareVersions(v, lo) >= 0 && compareVersions(v, hi) <= 0);
    if (versions.length === 0) return { error: `no indexed version in ${text}` };
    return { kind: 'versions', versions };
  }
  const versions = text.split(',').map((v) => v.trim());
  for (const v of versions) {
    if (!VERSION.test(v)) return { error: `"${v}" is not a version (like 2.1.40)${DAY.test(v) ? `; a day side is a range, like ${v}..${v}` : ''}` };
    if (!known.includes(v)) return { error: `version ${v} is not in the index` };
  }
  return { kind: 'versions', versions };
}

/** Why two sides cannot be compared (mixed kinds or overlap), or null. */
export function sidesConflict(a: ParsedSide, b: ParsedSide): string | null {
  if (a.kind !== b.kind) return 'compare versions with versions, or days with days';
  if (a.kind === 'versions' && b.kind === 'versions') {
    const shared = a.versions.filter((v) => b.versions.includes(v));
    return shared.length ? `the sides overlap: ${shared.slice(0, 3).join(', ')}${shared.length > 3 ? '…' : ''} on both` : null;
  }
  if (a.kind === 'days' && b.kind === 'days' && a.from <= b.to && b.from <= a.to) return 'the sides overlap: some days are on both';
  return null;
}
