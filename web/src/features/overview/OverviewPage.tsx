import { useState } from 'react';
import { useFolders, useRegressions, useSummary } from '../../api/queries';
import { FilterBar } from '../../components/FilterBar';
import { ErrorBanner, NothingIndexed, Skeleton } from '../../components/ui';
import { VersionVerdicts } from '../../components/VerdictCards';
import { ViewAsData } from '../../components/ViewAsData';
import { toQueryString } from '../../lib/url-filters';
import { usePageFilters } from '../../lib/use-page-filters';
import { OtherAgents, OverviewWarnings } from './OverviewNotices';
import { OverviewStats } from './OverviewStats';
import { OverviewTimeline } from './OverviewTimeline';
import { TopVersions } from './TopVersions';

export function OverviewPage() {
  // Several agents: the Overview opens on Claude Code when the folders hold it (agent=all shows every agent).
  const page = usePageFilters({ openOnClaudeCode: true });
  const { filters, agentRows, openOn } = page;
  const summary = useSummary(filters);
  const regressions = useRegressions(filters);
  const folders = useFolders();
  const [showAll, setShowAll] = useState(false);

  if (summary.error) return <ErrorBanner error={summary.error} />;
  if (!summary.data) return <Skeleton height={320} />;
  const s = summary.data;
  if (s.folders === 0) return <NothingIndexed />;
  const measurable = s.codes.filter((c) => c.not_measurable === null);
  const withFindings = measurable.filter((c) => c.count > 0).map((c) => c.code);
  const quiet = measurable.filter((c) => c.count === 0);
  const qs = toQueryString(filters);

  return (
    <div className="page">
      <h1>Overview</h1>
      <VersionVerdicts regressions={regressions} title="Where did it start?" testId="verdicts-overview" />
      <OverviewWarnings summary={s} neverIndexed={folders.data?.rows.filter((r) => r.last_indexed_at === null).length ?? 0} />
      {agentRows.length > 1 && <OtherAgents agentRows={agentRows} filters={filters} search={page.search} />}
      <FilterBar showCodes={false} defaultAgent={openOn} />
      <OverviewStats summary={s} showAll={showAll} onShowAll={() => setShowAll(true)} />
      <OverviewTimeline
        page={page}
        summary={s}
        codes={showAll ? measurable.map((c) => c.code) : withFindings}
        quietCount={quiet.length}
        showAll={showAll}
        setShowAll={setShowAll}
        regressions={regressions.data?.rows ?? []}
      />
      <TopVersions page={page} summary={s} withFindings={withFindings} />
      <ViewAsData api={`/api/regressions${qs}`} />
    </div>
  );
}
