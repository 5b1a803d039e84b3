import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { SummaryResponse, VerdictCard } from '../../../../shared/api-schemas';
import { useTimelineIn, useTimelinesByAgent } from '../../api/queries';
import { chartMarkers } from '../../charts/markers';
import { autoBucket, foldDays } from '../../charts/scale';
import { Loaded, Section, Skeleton } from '../../components/ui';
import { agentLabel } from '../../lib/agents';
import { formatCount } from '../../lib/format';
import type { KeyedRow } from '../../lib/keyed-rows';
import { listParam } from '../../lib/url-filters';
import type { PageFilters } from '../../lib/use-page-filters';

// The chart (and recharts with it) loads on its own: the verdict cards and figures do not wait for it (issue 32).
const RateTimeChart = lazy(() => import('../../charts/RateTimeChart').then((m) => ({ default: m.RateTimeChart })));

interface Props {
  page: PageFilters;
  summary: SummaryResponse;
  codes: string[];
  quietCount: number;
  showAll: boolean;
  setShowAll: (show: boolean) => void;
  regressions: readonly VerdictCard[];
}

/**
 * The failure rate over time: one chart of every code for the agent shown, or, with several agents
 * shown (issue 34), one chart per agent, each from that agent's own timeline (`agent=`).
 */
export function OverviewTimeline({ page, summary: s, codes, quietCount, showAll, setShowAll, regressions }: Props) {
  const { search, filters, shownAgents, mixed } = page;
  // Weeks come from the server for long ranges: a year of days is ~0.8 MB of JSON.
  const bucket = autoBucket(s.first_day, s.last_day);
  const fetchBucket = bucket === 'week' ? 'week' : 'day';
  const timeline = useTimelineIn(filters, mixed ? null : fetchBucket);
  const byAgent = useTimelinesByAgent(filters, mixed ? shownAgents : [], fetchBucket);
  const picked = listParam(search.get('mark') ?? undefined);
  const chart = (data: { rows: KeyedRow[]; bucket: string; version_markers: Array<{ version: string; first_day: string }> }, testId?: string) => (
    <Suspense fallback={<Skeleton height={200} />}>
      <RateTimeChart
        rows={foldDays(data.rows, data.bucket === 'week' && bucket === 'week' ? 'day' : bucket)}
        bucket={bucket}
        codes={codes}
        markers={chartMarkers(regressions, data.version_markers, picked)}
        height={200}
        compact
        hiddenCount={showAll ? 0 : quietCount}
        showHidden={showAll}
        onToggleHidden={() => setShowAll(!showAll)}
        testId={testId}
      />
    </Suspense>
  );
  const nothing = (
    <p className="muted" data-testid="no-chart">
      No findings in {formatCount(s.tool_use_turns)} tool-use turns: nothing to draw.{' '}
      <button type="button" className="linkish" onClick={() => setShowAll(true)}>
        Draw the zero lines anyway
      </button>
    </p>
  );
  return (
    <Section title="Failure rate over time" actions={<Link to={`/timeline${search.size ? `?${search}` : ''}`}>Open timeline</Link>}>
      {codes.length === 0 ? (
        nothing
      ) : !mixed ? (
        <Loaded query={timeline} height={200}>
          {(data) => chart(data)}
        </Loaded>
      ) : (
        byAgent.map((q, i) => (
          <div key={shownAgents[i]} className="agent-series" data-testid="agent-series" data-agent={shownAgents[i]}>
            <h3>{agentLabel(shownAgents[i] ?? null)}</h3>
            <Loaded query={q} height={200}>
              {(data) => chart(data, `timeline-chart-${data.agent}`)}
            </Loaded>
          </div>
        ))
      )}
    </Section>
  );
}
