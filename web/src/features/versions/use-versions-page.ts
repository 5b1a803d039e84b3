import { FINDING_CODES } from '../../../../shared/finding-codes';
import { opportunityWords } from '../../../../shared/format/opportunity-words';
import { useEfforts, useRegressions } from '../../api/queries';
import { codesWithFindings, measurableCodes } from '../../charts/scale';
import { listParam } from '../../lib/url-filters';
import { usePageFilters } from '../../lib/use-page-filters';
import { useShownVersions } from '../../lib/use-shown-versions';

/** What the Versions page's sections share: the filters, the version rows, the code charted, the efforts on record, the first bad versions. */
export function useVersionsPage() {
  const page = usePageFilters();
  const { search, filters } = page;
  const versions = useShownVersions(page);
  // The effort chips come from the index without the effort filter itself, so a chosen effort can be switched back.
  const allEfforts = useEfforts({ ...filters, effort: undefined });
  const effortNames = (allEfforts.data?.rows ?? []).map((r) => r.key ?? 'unknown');
  // Before 2.1.212 nothing records effort: one "unknown" bar and table say nothing, a sentence says it.
  const effortRecorded = effortNames.some((e) => e !== 'unknown');
  const regressions = useRegressions(filters);
  const rows = versions.data?.rows ?? [];
  const found = codesWithFindings(rows, FINDING_CODES);
  const measurable = measurableCodes(rows, FINDING_CODES);
  // By default the chart shows a code with findings; the chooser offers every measurable code.
  const code = FINDING_CODES.find((c) => c === search.get('chart')) ?? found[0] ?? measurable[0] ?? FINDING_CODES[0];
  const per = opportunityWords(rows[0]?.codes.find((c) => c.code === code)?.opportunity ?? 'tool_use_turns');
  const opened = listParam(search.get('open') ?? undefined);
  const firstBad = (regressions.data?.rows ?? []).filter((c) => c.dimension === 'version' && c.strength !== 'insufficient').map((c) => c.first_bad!);
  return { page, versions, rows, allEfforts, effortNames, effortRecorded, regressions, found, measurable, code, per, opened, firstBad };
}

export type VersionsPageState = ReturnType<typeof useVersionsPage>;

/** Every version inside an opened range ("2.1.43~2.1.52"), plus the ones kept anyway. */
export function expandRanges(all: readonly string[], opened: readonly string[], keep: readonly string[]): string[] {
  const out = new Set(keep);
  for (const o of opened) {
    const [lo, hi] = o.split('~');
    const i = all.indexOf(lo ?? '');
    const j = all.indexOf(hi ?? '');
    if (i >= 0 && j >= i) for (const v of all.slice(i, j + 1)) out.add(v);
  }
  return [...out];
}
