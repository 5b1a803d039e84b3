import { FINDING_CODES } from '../../../shared/finding-codes';
import { useModels, useRegressions, useVersionModels, useVersions } from '../api/queries';
import { FilterBar } from '../components/FilterBar';
import { RateTable } from '../components/RateTable';
import { RateWhiskerChart } from '../components/RateWhiskerChart';
import { RegressionVerdicts } from '../components/RegressionVerdicts';
import { SessionEndsChart } from '../components/SessionEndsChart';
import { Loaded, NothingIndexed, Section } from '../components/ui';
import { whiskerSeries } from '../lib/chart-data';
import { codeColor } from '../lib/colors';
import { codeLabel, formatCount, formatRate } from '../lib/format';
import { filtersFromSearch } from '../lib/url-filters';
import { useUrlParams } from '../lib/use-url-params';

export function VersionsPage() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const versions = useVersions(filters);
  const models = useModels(filters);
  const cross = useVersionModels(filters);
  const regressions = useRegressions(filters);
  const code = FINDING_CODES.find((c) => c === search.get('chart')) ?? FINDING_CODES[0];
  const chooser = (
    <label>
      Chart{' '}
      <select value={code} onChange={(e) => setParams({ chart: e.target.value })}>
        {FINDING_CODES.map((c) => (
          <option key={c} value={c}>
            {codeLabel(c)}
          </option>
        ))}
      </select>
    </label>
  );
  if (versions.data && versions.data.rows.length === 0 && !search.size) return <NothingIndexed />;
  const crossModels = [...new Set((cross.data?.rows ?? []).map((r) => r.model ?? 'unknown'))];
  const crossVersions = [...new Set((cross.data?.rows ?? []).map((r) => r.version ?? 'unknown'))];

  return (
    <div className="page">
      <h1>Versions and models</h1>
      <FilterBar showCodes={false} extra={chooser} />
      <Section title="Where did it start? (by version)">
        <Loaded query={regressions} height={80}>
          {(r) => <RegressionVerdicts verdicts={r.verdicts} dimension="version" method={r.method} />}
        </Loaded>
      </Section>
      <Section title={`${codeLabel(code)} per 1,000 tool-use turns, by Claude Code version`}>
        <Loaded query={versions} height={300}>
          {(data) => (
            <>
              <RateWhiskerChart points={whiskerSeries(data.rows, code)} color={codeColor(code, FINDING_CODES)} height={300} testId="versions-chart" />
              <RateTable rows={data.rows} keyName="version" testId="versions-table" />
            </>
          )}
        </Loaded>
      </Section>
      <Section title={`${codeLabel(code)} per 1,000 tool-use turns, by model`}>
        <Loaded query={models} height={240}>
          {(data) => (
            <>
              <RateWhiskerChart points={whiskerSeries(data.rows, code)} color={codeColor(code, FINDING_CODES)} height={240} testId="models-chart" />
              <RateTable rows={data.rows} keyName="model" testId="models-table" />
            </>
          )}
        </Loaded>
      </Section>
      <SessionEndsChart root={filters.root} />
      <Section title={`${codeLabel(code)}: version × model`}>
        <Loaded query={cross} height={160}>
          {(data) => (
            <div className="table-scroll">
              <table className="table" data-testid="version-model-table">
                <thead>
                  <tr>
                    <th>version</th>
                    {crossModels.map((m) => (
                      <th key={m} className="num">
                        {m}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {crossVersions.map((v) => (
                    <tr key={v}>
                      <td>{v}</td>
                      {crossModels.map((m) => {
                        const row = data.rows.find((r) => (r.version ?? 'unknown') === v && (r.model ?? 'unknown') === m);
                        const c = row?.codes.find((x) => x.code === code);
                        return (
                          <td key={m} className="num" title={row ? `${c?.count ?? 0} in ${row.tool_use_turns} tool-use turns` : 'no messages'}>
                            {row ? `${formatRate(c?.per_1000_tool_use_turns ?? null)} (n=${formatCount(row.tool_use_turns)})` : '·'}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Loaded>
      </Section>
    </div>
  );
}
