import { useState } from 'react';
import { FINDING_CODES } from '../../../../shared/finding-codes';
import { useModels, useRegressions, useSummary, useTimelineIn } from '../../api/queries';
import { chartMarkers } from '../../charts/markers';
import { RateTimeChart } from '../../charts/RateTimeChart';
import { autoBucket, codesWithFindings, foldDays, measurableCodes, type TimeBucket } from '../../charts/scale';
import { FilterBar } from '../../components/FilterBar';
import { RateTable } from '../../components/RateTable';
import { Loaded, NothingIndexed, Section } from '../../components/ui';
import { VerdictCards } from '../../components/VerdictCards';
import { ViewAsData } from '../../components/ViewAsData';
import { rateRowsCsv } from '../../lib/csv';
import { filtersFromSearch, listParam, toQueryString } from '../../lib/url-filters';
import { useUrlParams } from '../../lib/use-url-params';

const BUCKETS = ['auto', 'day', 'week', 'month'] as const;

export function TimelinePage() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const chosen = (BUCKETS as readonly string[]).includes(search.get('bucket') ?? '') ? (search.get('bucket') as (typeof BUCKETS)[number]) : 'auto';
  const summary = useSummary(filters);
  const auto = summary.data ? autoBucket(summary.data.first_day, summary.data.last_day) : null;
  // Weeks come from the server; days and months are folded here from days.
  const resolved = chosen === 'auto' ? auto : chosen;
  const timeline = useTimelineIn(filters, resolved === null ? null : resolved === 'week' ? 'week' : 'day');
  const models = useModels({});
  const regressions = useRegressions(filters);
  const [showAll, setShowAll] = useState(false);
  const selected = listParam(filters.code).length ? FINDING_CODES.filter((c) => listParam(filters.code).includes(c)) : [...FINDING_CODES];
  const picked = listParam(search.get('mark') ?? undefined);

  const bucketToggle = (
    <label>
      Bucket{' '}
      <select value={chosen} onChange={(e) => setParams({ bucket: e.target.value === 'auto' ? undefined : e.target.value })}>
        {BUCKETS.map((b) => (
          <option key={b} value={b}>
            {b}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="page">
      <h1>Timeline</h1>
      <Section title="Where did it start? (by day)">
        <Loaded query={regressions} height={90}>
          {(r) => (
            <VerdictCards cards={r.rows.filter((c) => c.dimension === 'day')} noClaim={r.no_claim.day} sessionCap={r.session_cap} testId="verdicts-day" />
          )}
        </Loaded>
      </Section>
      <FilterBar models={(models.data?.rows ?? []).flatMap((r) => (r.key ? [r.key] : []))} extra={bucketToggle} />
      <Loaded query={timeline} height={420}>
        {(data) => {
          if (data.rows.length === 0 && !search.size) return <NothingIndexed />;
          const keys = data.rows.flatMap((r) => (r.key ? [r.key] : []));
          const bucket: TimeBucket = chosen === 'auto' ? (auto ?? autoBucket(keys[0] ?? null, keys[keys.length - 1] ?? null)) : chosen;
          const rows = foldDays(data.rows, bucket === 'week' && data.bucket === 'week' ? 'day' : bucket);
          const found = codesWithFindings(rows, selected);
          const measurable = measurableCodes(rows, selected);
          const codes = showAll ? measurable : found;
          const unmeasurable = selected.filter((c) => !measurable.includes(c));
          return (
            <>
              <Section title={`Findings per 1,000 opportunities, per ${bucket}`}>
                {codes.length === 0 ? (
                  <p className="muted" data-testid="no-chart">
                    No findings in this selection: nothing to draw.{' '}
                    <button type="button" className="linkish" onClick={() => setShowAll(true)}>
                      Draw the zero lines anyway
                    </button>
                  </p>
                ) : (
                  <RateTimeChart
                    rows={rows}
                    bucket={bucket}
                    codes={codes}
                    markers={chartMarkers(regressions.data?.rows ?? [], data.version_markers, picked)}
                    height={340}
                    onRange={(from, to) => setParams({ from, to })}
                    hiddenCount={showAll ? 0 : measurable.length - found.length}
                    showHidden={showAll}
                    onToggleHidden={() => setShowAll(!showAll)}
                  />
                )}
                {unmeasurable.length > 0 && (
                  <p className="muted small" data-testid="not-measurable">
                    Not measurable here (no opportunities in this selection): {unmeasurable.join(', ')}.
                  </p>
                )}
                {(search.get('from') || search.get('to')) && (
                  <button type="button" className="linkish" onClick={() => setParams({ from: undefined, to: undefined })}>
                    Zoom out (clear {search.get('from') ?? '…'} – {search.get('to') ?? '…'})
                  </button>
                )}
              </Section>
              <Section title="Figures">
                <RateTable rows={rows} keyName={bucket} testId="timeline-table" codes={found} minTurns={200} />
                <ViewAsData
                  api={`/api/timeline${toQueryString({ ...filters, bucket: data.bucket })}`}
                  csv={{ name: `timeline-${bucket}.csv`, rows: () => rateRowsCsv(rows, bucket) }}
                />
              </Section>
            </>
          );
        }}
      </Loaded>
    </div>
  );
}
