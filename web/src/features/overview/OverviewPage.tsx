import { lazy, Suspense, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AGENT_LABELS, isAgent } from '../../../../shared/agents';
import { NOT_MEASURABLE_TEXT } from '../../../../shared/denominators';
import { FINDING_CODES } from '../../../../shared/finding-codes';
import { opportunityWords } from '../../../../shared/format/opportunity-words';
import { useAgents, useFolders, useRegressions, useSummary, useTimelineIn, useVersions } from '../../api/queries';
import { chartMarkers } from '../../charts/markers';
import { autoBucket, foldDays, formatCell } from '../../charts/scale';
import { FilterBar } from '../../components/FilterBar';
import { ErrorBanner, Loaded, NothingIndexed, Section, Skeleton, StatCard, WarningBanner } from '../../components/ui';
import { VerdictCards } from '../../components/VerdictCards';
import { ViewAsData } from '../../components/ViewAsData';
import { rateRowsCsv } from '../../lib/csv';
import { codeLabel, formatCount, formatDay } from '../../lib/format';
import { filtersFromSearch, listParam, toQueryString } from '../../lib/url-filters';

// The chart (and recharts with it) loads on its own: the verdict cards and figures do not wait for it (issue 32).
const RateTimeChart = lazy(() => import('../../charts/RateTimeChart').then((m) => ({ default: m.RateTimeChart })));

export function OverviewPage() {
  const [search] = useSearchParams();
  // Several agents: the Overview opens on Claude Code when the folders hold it (agent=all shows every agent).
  const agents = useAgents(search.get('folder') ?? undefined);
  const agentRows = agents.data?.rows ?? [];
  const openOn = agentRows.length > 1 && agentRows.some((r) => r.agent === 'claude-code') ? 'claude-code' : undefined;
  const defaultAgent = search.has('agent') ? undefined : openOn;
  const filters = { ...filtersFromSearch(search), ...(defaultAgent ? { agent: defaultAgent } : {}) };
  const summary = useSummary(filters);
  // Weeks come from the server for long ranges: a year of days is ~0.8 MB of JSON.
  const overviewBucket = summary.data ? autoBucket(summary.data.first_day, summary.data.last_day) : null;
  const timeline = useTimelineIn(filters, overviewBucket === null ? null : overviewBucket === 'week' ? 'week' : 'day');
  const versions = useVersions(filters);
  const regressions = useRegressions(filters);
  const folders = useFolders();
  const [showAll, setShowAll] = useState(false);

  if (summary.error) return <ErrorBanner error={summary.error} />;
  if (!summary.data) return <Skeleton height={320} />;
  const s = summary.data;
  if (s.folders === 0) return <NothingIndexed />;
  const measurable = s.codes.filter((c) => c.not_measurable === null);
  const notMeasurable = s.codes.filter((c) => c.not_measurable !== null);
  const withFindings = measurable.filter((c) => c.count > 0).map((c) => c.code);
  const quiet = measurable.filter((c) => c.count === 0);
  const charted = showAll ? measurable.map((c) => c.code) : withFindings;
  const neverIndexed = folders.data?.rows.filter((r) => r.last_indexed_at === null) ?? [];
  const picked = listParam(search.get('mark') ?? undefined);
  const qs = toQueryString(filters);

  return (
    <div className="page">
      <h1>Overview</h1>
      <Section title="Where did it start?">
        <Loaded query={regressions} height={90}>
          {(r) => (
            <VerdictCards
              cards={r.rows.filter((c) => c.dimension === 'version')}
              noClaim={r.no_claim.version}
              sessionCap={r.session_cap}
              testId="verdicts-overview"
            />
          )}
        </Loaded>
      </Section>
      {s.files_failed > 0 && (
        <WarningBanner>
          <strong>
            {s.files_failed} file{s.files_failed === 1 ? '' : 's'} failed to read
          </strong>{' '}
          and {s.files_failed === 1 ? 'is' : 'are'} not counted anywhere. <Link to="/files">See which, with the error and line</Link>.
        </WarningBanner>
      )}
      {s.files_in_progress > 0 && (
        <WarningBanner>
          <strong>
            {s.files_in_progress} file{s.files_in_progress === 1 ? ' is' : 's are'} still being written
          </strong>{' '}
          (last line incomplete) and not counted yet. <Link to="/files">Details</Link>.
        </WarningBanner>
      )}
      {neverIndexed.length > 0 && (
        <WarningBanner>
          <strong>
            {neverIndexed.length} folder{neverIndexed.length === 1 ? ' was' : 's were'} added but never indexed.
          </strong>{' '}
          <Link to="/folders">Start an index run</Link>.
        </WarningBanner>
      )}
      {agentRows.length > 1 && (
        <p className="muted" data-testid="other-agents">
          {(() => {
            const shown = filters.agent?.split(',') ?? [];
            const others = agentRows.filter((r) => !shown.includes(r.agent));
            const name = (a: string) => (isAgent(a) ? AGENT_LABELS[a] : a);
            return (
              <>
                {shown.length > 0 ? `Showing ${shown.map(name).join(', ')}. ` : 'Showing every agent. '}
                {others.length > 0 && 'The folders also hold: '}
                {others.map((r, i) => (
                  <span key={r.agent}>
                    {i > 0 && ', '}
                    <Link to={`/?${new URLSearchParams({ ...Object.fromEntries(search), agent: r.agent }).toString()}`}>{name(r.agent)}</Link> (
                    {formatCount(r.files)} file{r.files === 1 ? '' : 's'})
                  </span>
                ))}
                {others.length > 0 && '.'}
              </>
            );
          })()}
        </p>
      )}
      <FilterBar showCodes={false} defaultAgent={openOn} />
      <div className="stats">
        <StatCard
          testId="stat-files"
          label="Files indexed"
          value={formatCount(s.files_ok)}
          detail={`${s.files_failed} failed, ${s.files_in_progress} being written`}
        />
        <StatCard
          testId="stat-messages"
          label="Assistant messages"
          value={formatCount(s.assistant_messages)}
          detail={s.first_day ? `${formatDay(s.first_day)} – ${formatDay(s.last_day)}` : undefined}
        />
        <StatCard testId="stat-turns" label="Tool-use turns" value={formatCount(s.tool_use_turns)} detail="messages that stopped to call a tool" />
        {measurable
          .filter((c) => c.count > 0 || showAll)
          .map((c) => (
            <StatCard
              key={c.code}
              testId={`stat-${c.code}`}
              label={codeLabel(c.code)}
              value={formatCount(c.count)}
              detail={
                <span title={`per 1,000 ${opportunityWords(c.opportunity)}, with 95% Wilson interval`}>{formatCell(c, opportunityWords(c.opportunity))}</span>
              }
            />
          ))}
      </div>
      {quiet.length > 0 && !showAll && (
        <p className="muted small" data-testid="quiet-codes">
          No findings for {quiet.length} other code{quiet.length === 1 ? '' : 's'} ({quiet.map((c) => codeLabel(c.code)).join(', ')}).{' '}
          <button type="button" className="linkish" onClick={() => setShowAll(true)}>
            Show them
          </button>
        </p>
      )}
      {notMeasurable.length > 0 && (
        <p className="muted small" data-testid="not-measurable">
          Not measurable here: {notMeasurable.map((c) => `${codeLabel(c.code)} — ${NOT_MEASURABLE_TEXT[c.not_measurable!] ?? c.not_measurable}`).join('; ')}.
        </p>
      )}
      <Section title="Failure rate over time" actions={<Link to={`/timeline${search.size ? `?${search}` : ''}`}>Open timeline</Link>}>
        <Loaded query={timeline} height={200}>
          {(data) => {
            const bucket = autoBucket(s.first_day, s.last_day);
            return charted.length === 0 ? (
              <p className="muted" data-testid="no-chart">
                No findings in {formatCount(s.tool_use_turns)} tool-use turns: nothing to draw.{' '}
                <button type="button" className="linkish" onClick={() => setShowAll(true)}>
                  Draw the zero lines anyway
                </button>
              </p>
            ) : (
              <Suspense fallback={<Skeleton height={200} />}>
                <RateTimeChart
                  rows={foldDays(data.rows, data.bucket === 'week' && bucket === 'week' ? 'day' : bucket)}
                  bucket={bucket}
                  codes={charted}
                  markers={chartMarkers(regressions.data?.rows ?? [], data.version_markers, picked)}
                  height={200}
                  compact
                  hiddenCount={showAll ? 0 : quiet.length}
                  showHidden={showAll}
                  onToggleHidden={() => setShowAll(!showAll)}
                />
              </Suspense>
            );
          }}
        </Loaded>
      </Section>
      <Section title="Versions with the highest rates" actions={<Link to="/versions">All versions</Link>}>
        <Loaded query={versions} height={140}>
          {(data) => {
            // Ranked by the interval's lower end, so a version with 2 findings in 14 turns does not top one with 30 in 500.
            const rate = (r: (typeof data.rows)[number]) => Math.max(0, ...r.codes.filter((c) => c.count > 0).map((c) => c.per_1000_opportunities?.low ?? 0));
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
                <div className="table-scroll">
                  <table className="table" data-testid="top-versions">
                    <thead>
                      <tr>
                        <th>version</th>
                        <th className="num">tool-use turns</th>
                        {cols.map((c) => (
                          <th key={c} className="num">
                            {codeLabel(c)}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {top.map((r) => (
                        <tr key={r.key ?? 'unknown'}>
                          <td>{r.key ?? 'unknown'}</td>
                          <td className="num">{formatCount(r.tool_use_turns)}</td>
                          {cols.map((code) => {
                            const c = r.codes.find((x) => x.code === code);
                            return (
                              <td key={code} className="num">
                                {c ? formatCell(c) : '–'}
                              </td>
                            );
                          })}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <ViewAsData api={`/api/versions${qs}`} csv={{ name: 'versions.csv', rows: () => rateRowsCsv(data.rows, 'version') }} />
              </>
            );
          }}
        </Loaded>
        <p className="muted small">
          Only versions with findings are listed, ranked by the lower end of their 95% interval; rates are per 1,000 of each code's own opportunities.
        </p>
      </Section>
      <ViewAsData api={`/api/regressions${qs}`} />
    </div>
  );
}
