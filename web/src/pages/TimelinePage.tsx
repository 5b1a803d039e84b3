import { FINDING_CODES } from '../../../shared/finding-codes';
import { useModels, useRegressions, useTimeline } from '../api/queries';
import { FilterBar } from '../components/FilterBar';
import { RateTable } from '../components/RateTable';
import { RegressionVerdicts } from '../components/RegressionVerdicts';
import { TimelineChart } from '../components/TimelineChart';
import { Loaded, NothingIndexed, Section } from '../components/ui';
import { timelineSeries } from '../lib/chart-data';
import { filtersFromSearch, listParam } from '../lib/url-filters';
import { useUrlParams } from '../lib/use-url-params';

export function TimelinePage() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const bucket = search.get('bucket') === 'week' ? 'week' : 'day';
  const timeline = useTimeline(filters, bucket);
  const models = useModels({});
  const regressions = useRegressions(filters);
  const codes = listParam(filters.code).length ? FINDING_CODES.filter((c) => listParam(filters.code).includes(c)) : [...FINDING_CODES];

  const bucketToggle = (
    <label>
      Bucket{' '}
      <select value={bucket} onChange={(e) => setParams({ bucket: e.target.value === 'week' ? 'week' : undefined })}>
        <option value="day">day</option>
        <option value="week">week</option>
      </select>
    </label>
  );

  return (
    <div className="page">
      <h1>Timeline</h1>
      <FilterBar models={(models.data?.rows ?? []).flatMap((r) => (r.key ? [r.key] : []))} extra={bucketToggle} />
      <Loaded query={timeline} height={420}>
        {(data) =>
          data.rows.length === 0 && !search.size ? (
            <NothingIndexed />
          ) : (
            <>
              <Section title={`Findings per 1,000 tool-use turns, per ${bucket}`}>
                <p className="muted small">
                  Lines: rate per code; shaded: its 95% Wilson interval; bars (right axis): tool-use turns, so a rate on few turns looks as uncertain as it is;
                  dashed: first {bucket === 'day' ? 'day' : 'week'} each Claude Code version was seen. Drag the brush to zoom.
                </p>
                <TimelineChart
                  points={timelineSeries(data.rows, codes)}
                  codes={codes}
                  allCodes={FINDING_CODES}
                  markers={bucket === 'day' ? data.version_markers : []}
                  height={380}
                  onRange={(from, to) => setParams({ from, to })}
                />
              </Section>
              <Section title="Where did it start? (by day)">
                <Loaded query={regressions} height={80}>
                  {(r) => <RegressionVerdicts verdicts={r.verdicts} dimension="day" method={r.method} />}
                </Loaded>
              </Section>
              <Section title="Figures">
                <RateTable rows={data.rows} keyName={bucket} testId="timeline-table" />
              </Section>
            </>
          )
        }
      </Loaded>
    </div>
  );
}
