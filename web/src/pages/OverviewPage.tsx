import { Link, useSearchParams } from 'react-router';
import { FINDING_CODES } from '../../../shared/finding-codes';
import { useRoots, useSummary, useTimeline, useVersions } from '../api/queries';
import { FilterBar } from '../components/FilterBar';
import { TimelineChart } from '../components/TimelineChart';
import { ErrorBanner, Loaded, NothingIndexed, Section, Skeleton, StatCard, WarningBanner } from '../components/ui';
import { highestRates, timelineSeries } from '../lib/chart-data';
import { codeLabel, formatCount, formatDay, formatRate, formatRateWithInterval } from '../lib/format';
import { filtersFromSearch } from '../lib/url-filters';

export function OverviewPage() {
  const [search] = useSearchParams();
  const filters = filtersFromSearch(search);
  const summary = useSummary(filters);
  const timeline = useTimeline(filters, 'day');
  const versions = useVersions(filters);
  const roots = useRoots();

  if (summary.error) return <ErrorBanner error={summary.error} />;
  if (!summary.data) return <Skeleton height={320} />;
  const s = summary.data;
  if (s.roots === 0) return <NothingIndexed />;
  const codes = s.codes.map((c) => c.code);
  // The compact chart draws only the codes that have findings; flat zero lines would hide them.
  const charted = s.codes.filter((c) => c.count > 0).map((c) => c.code);
  const neverScanned = roots.data?.roots.filter((r) => r.last_scan_at === null) ?? [];

  return (
    <div className="page">
      <h1>Overview</h1>
      {s.files_failed > 0 && (
        <WarningBanner>
          <strong>
            {s.files_failed} file{s.files_failed === 1 ? '' : 's'} failed to scan
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
      {neverScanned.length > 0 && (
        <WarningBanner>
          <strong>
            {neverScanned.length} folder{neverScanned.length === 1 ? ' was' : 's were'} added but never scanned.
          </strong>{' '}
          <Link to="/sources">Start a scan</Link>.
        </WarningBanner>
      )}
      <FilterBar showCodes={false} />
      <div className="stats">
        <StatCard
          testId="stat-files"
          label="Files scanned"
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
        {s.codes.map((c) => (
          <StatCard
            key={c.code}
            testId={`stat-${c.code}`}
            label={codeLabel(c.code)}
            value={formatCount(c.count)}
            detail={
              <span title="per 1,000 tool-use turns, with 95% Wilson interval">{formatRateWithInterval(c.per_1000_tool_use_turns)} of tool-use turns</span>
            }
          />
        ))}
      </div>
      <Section title="Failure rate per day" actions={<Link to={`/timeline${search.size ? `?${search}` : ''}`}>Open timeline</Link>}>
        <Loaded query={timeline} height={200}>
          {(data) => (
            <TimelineChart
              points={timelineSeries(data.rows, charted)}
              codes={charted}
              allCodes={FINDING_CODES}
              markers={data.version_markers}
              height={200}
              compact
            />
          )}
        </Loaded>
      </Section>
      <Section title="Versions with the highest rates" actions={<Link to="/versions">All versions</Link>}>
        <Loaded query={versions} height={140}>
          {(data) => (
            <div className="table-scroll">
              <table className="table" data-testid="top-versions">
                <thead>
                  <tr>
                    <th>version</th>
                    <th className="num">tool-use turns</th>
                    {codes.map((c) => (
                      <th key={c} className="num">
                        {codeLabel(c)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {highestRates(data.rows, codes[0] ?? 'missing_tool_use_block', 30, 5).map((r) => (
                    <tr key={r.key ?? 'unknown'}>
                      <td>{r.key ?? 'unknown'}</td>
                      <td className="num">{formatCount(r.tool_use_turns)}</td>
                      {r.codes.map((c) => (
                        <td key={c.code} className="num">
                          {c.count} ({formatRate(c.per_1000_tool_use_turns)})
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Loaded>
        <p className="muted small">Versions with fewer than 30 tool-use turns are left out here: their rates say little.</p>
      </Section>
    </div>
  );
}
