import type { VerdictCard } from '../../../shared/api-schemas';

/** A vertical marker on a time chart: a first bad version or day a card names, or a version picked by hand. */
export interface ChartMarker {
  day: string;
  label: string;
  kind: 'first-bad' | 'version';
}

/**
 * Markers for a time chart: the first bad version (on the day it was first seen) or first bad
 * day of every card that names a change, then versions the user picked; no other version lines.
 */
export function chartMarkers(
  cards: readonly VerdictCard[],
  versionMarkers: ReadonlyArray<{ version: string; first_day: string }>,
  picked: readonly string[] = [],
): ChartMarker[] {
  const out: ChartMarker[] = [];
  // A version string two agents share (each has its own marker): the day it was first seen by either.
  const firstDay = new Map<string, string>();
  for (const m of versionMarkers) if (!firstDay.has(m.version) || m.first_day < firstDay.get(m.version)!) firstDay.set(m.version, m.first_day);
  for (const c of cards) {
    if (c.strength === 'insufficient' || !c.first_bad) continue;
    if (c.dimension === 'version') {
      const day = firstDay.get(c.first_bad);
      if (day && !out.some((m) => m.label.endsWith(c.first_bad!))) out.push({ day, label: `first bad: ${c.first_bad}`, kind: 'first-bad' });
    } else if (!out.some((m) => m.day === c.first_bad)) out.push({ day: c.first_bad, label: `change: ${c.first_bad}`, kind: 'first-bad' });
  }
  for (const v of picked) {
    const day = firstDay.get(v);
    if (day && !out.some((m) => m.label.endsWith(v))) out.push({ day, label: v, kind: 'version' });
  }
  return out;
}

/**
 * A marker where every version was first seen (the report's chart, whose labels the chart thins); with several
 * agents' versions each is named with its agent (`codex 0.146.0`), as versions are per agent.
 */
export function versionMarkers(versionMarkers: ReadonlyArray<{ agent?: string; version: string; first_day: string }>): ChartMarker[] {
  const mixed = new Set(versionMarkers.map((m) => m.agent)).size > 1;
  return versionMarkers.map((m) => ({ day: m.first_day, label: mixed ? `${m.agent} ${m.version}` : m.version, kind: 'version' }));
}
