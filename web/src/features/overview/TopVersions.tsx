import { Link } from 'react-router';
import type { SummaryResponse } from '../../../../shared/api-schemas';
import { FINDING_CODES } from '../../../../shared/finding-codes';
import { RateTable } from '../../components/RateTable';
import { Loaded, Section } from '../../components/ui';
import { ViewAsData } from '../../components/ViewAsData';
import { rateRowsCsv } from '../../lib/csv';
import { formatCount } from '../../lib/format';
import type { KeyedRow } from '../../lib/keyed-rows';
import { toQueryString } from '../../lib/url-filters';
import type { PageFilters } from '../../lib/use-page-filters';
import { useShownVersions } from '../../lib/use-shown-versions';

/** The five versions with the highest rates, ranked by the interval's lower end. */
export function TopVersions({ page, summary: s, withFindings }: { page: PageFilters; summary: SummaryResponse; withFindings: string[] }) {
  const versions = useShownVersions(page);
  const qs = toQueryString(page.filters);
  return (
    <Section title="Versions with the highest rates" actions={<Link to="/versions">All versions</Link>}>
      <Loaded query={versions} height={140}>
        {(data) => {
          // Ranked by the interval's lower end, so a version with 2 findings in 14 turns does not top one with 30 in 500.
          const rate = (r: KeyedRow) => Math.max(0, ...r.codes.filter((c) => c.count > 0).map((c) => c.per_1000_opportunities?.low ?? 0));
          const top = data.rows
            .filter((r) => r.codes.some((c) => c.count > 0))
            .sort((a, b) => rate(b) - rate(a))
            .slice(0, 5);
          const cols = FINDING_CODES.filter((c) => withFindings.includes(c));
          if (top.length === 0)
            return (
              <p className="muted" data-testid="top-versions-none">
                No findings in {formatCount(s.tool_use_turns)} tool-use turns across {data.rows.length} version{data.rows.length === 1 ? '' : 's'}.
              </p>
            );
          return (
            <>
              <RateTable rows={top} keyName="version" testId="top-versions" codes={cols} messages={false} />
              <ViewAsData api={`/api/versions${qs}`} csv={{ name: 'versions.csv', rows: () => rateRowsCsv(data.rows, 'version') }} />
            </>
          );
        }}
      </Loaded>
      <p className="muted small">
        Only versions with findings are listed, ranked by the lower end of their 95% interval; rates are per 1,000 of each code's own opportunities.
      </p>
    </Section>
  );
}
