import { FINDING_CODES } from '../../../../shared/finding-codes';
import { opportunityWords } from '../../../../shared/format/opportunity-words';
import { useEfforts, useModels, useRegressions, useVersionEfforts, useVersionModels, useVersions } from '../../api/queries';
import { whiskerSeries } from '../../charts/chart-data';
import { codeColor } from '../../charts/colors';
import { RateWhiskerChart } from '../../charts/RateWhiskerChart';
import { codesWithFindings, describeFold, foldVersions, formatCell, measurableCodes } from '../../charts/scale';
import { TurnEndsChart } from '../../charts/TurnEndsChart';
import { FilterBar } from '../../components/FilterBar';
import { RateTable } from '../../components/RateTable';
import { Loaded, NothingIndexed, Section } from '../../components/ui';
import { VerdictCards } from '../../components/VerdictCards';
import { ViewAsData } from '../../components/ViewAsData';
import { rateRowsCsv } from '../../lib/csv';
import { codeLabel, formatCount } from '../../lib/format';
import { filtersFromSearch, listParam, toQueryString } from '../../lib/url-filters';
import { useUrlParams } from '../../lib/use-url-params';

export function VersionsPage() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const versions = useVersions(filters);
  const models = useModels(filters);
  const cross = useVersionModels(filters);
  const efforts = useEfforts(filters);
  const crossEfforts = useVersionEfforts(filters);
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
  const chooser = (
    <label>
      Chart{' '}
      <select value={code} onChange={(e) => setParams({ chart: e.target.value })}>
        {measurable.map((c) => (
          <option key={c} value={c}>
            {codeLabel(c)}
            {found.includes(c) ? '' : ' (no findings)'}
          </option>
        ))}
      </select>
    </label>
  );
  if (versions.data && versions.data.rows.length === 0 && !search.size) return <NothingIndexed />;
  const qs = toQueryString(filters);

  return (
    <div className="page">
      <h1>Versions and models</h1>
      <Section title="Where did it start? (by version)">
        <Loaded query={regressions} height={90}>
          {(r) => (
            <VerdictCards
              cards={r.rows.filter((c) => c.dimension === 'version')}
              noClaim={r.no_claim.version}
              sessionCap={r.session_cap}
              testId="verdicts-version"
            />
          )}
        </Loaded>
      </Section>
      <FilterBar showCodes={false} extra={chooser} efforts={effortNames} />
      <Section title={`${codeLabel(code)} per 1,000 ${per}, by version`}>
        <Loaded query={versions} height={300}>
          {(data) => {
            const keep = [...firstBad, ...opened.flatMap((o) => o.split('~'))];
            const columns = foldVersions(data.rows, {
              maxColumns: 30,
              keep: expandRanges(
                data.rows.map((r) => r.key ?? 'unknown'),
                opened,
                keep,
              ),
            });
            const folded = columns.filter((c) => c.folded);
            const labels = new Map(folded.map((c) => [c.key, describeFold(c)]));
            return (
              <>
                <RateWhiskerChart
                  points={whiskerSeries(
                    columns.map((c) => c.row),
                    code,
                    labels,
                  )}
                  color={codeColor(code)}
                  height={260}
                  testId="versions-chart"
                  code={code}
                  per={per}
                  firstBad={firstBad}
                  onPick={(key) => {
                    const col = folded.find((c) => c.key === key);
                    if (col) setParams({ open: [...opened, `${col.versions[0]}~${col.versions[col.versions.length - 1]}`].join(',') });
                  }}
                />
                {folded.length > 0 && (
                  <p className="muted small" data-testid="fold-note">
                    {data.rows.length} versions drawn as {columns.length} columns: {folded.reduce((n, c) => n + c.versions.length, 0)} versions with the fewest
                    tool-use turns are pooled into {folded.length} ranges (a range's bar is the pooled rate). Click a range to open it.
                    {opened.length > 0 && (
                      <>
                        {' '}
                        <button type="button" className="linkish" onClick={() => setParams({ open: undefined })}>
                          Fold again
                        </button>
                      </>
                    )}
                  </p>
                )}
                <RateTable rows={data.rows} keyName="version" testId="versions-table" codes={found} minTurns={200} />
                <ViewAsData api={`/api/versions${qs}`} csv={{ name: 'versions.csv', rows: () => rateRowsCsv(data.rows, 'version') }} />
              </>
            );
          }}
        </Loaded>
      </Section>
      <Section title={`${codeLabel(code)} by model`}>
        <Loaded query={models} height={240}>
          {(data) => (
            <>
              <RateWhiskerChart points={whiskerSeries(data.rows, code)} color={codeColor(code)} height={200} testId="models-chart" code={code} per={per} />
              <RateTable rows={data.rows} keyName="model" testId="models-table" codes={found} />
              <ViewAsData api={`/api/models${qs}`} csv={{ name: 'models.csv', rows: () => rateRowsCsv(data.rows, 'model') }} />
            </>
          )}
        </Loaded>
      </Section>
      <Section title={`${codeLabel(code)} by effort`}>
        {allEfforts.data && !effortRecorded ? (
          <p className="muted small" data-testid="efforts-not-recorded">
            No transcript here records an effort (Claude Code writes it from 2.1.212): every reply counts as effort unknown, so there is no breakdown to draw.
          </p>
        ) : (
          <Loaded query={efforts} height={240}>
            {(data) => (
              <>
                <RateWhiskerChart points={whiskerSeries(data.rows, code)} color={codeColor(code)} height={200} testId="efforts-chart" code={code} per={per} />
                <RateTable rows={data.rows} keyName="effort" testId="efforts-table" codes={found} />
                <p className="muted small">
                  Effort is what each reply's row records (Claude Code 2.1.212+), else the nearest effort an earlier row of the file records; unknown where
                  nothing does.
                </p>
                <ViewAsData api={`/api/efforts${qs}`} csv={{ name: 'efforts.csv', rows: () => rateRowsCsv(data.rows, 'effort') }} />
              </>
            )}
          </Loaded>
        )}
      </Section>
      <TurnEndsChart folder={filters.folder} effort={filters.effort} sidechain={filters.sidechain} />
      {effortRecorded && (
        <Section title={`${codeLabel(code)}: version × effort`}>
          <Loaded query={crossEfforts} height={60}>
            {(data) => {
              const names = [...new Set(data.rows.map((r) => r.effort ?? 'unknown'))];
              const versionsWithRows = [...new Set(data.rows.map((r) => r.version ?? 'unknown'))];
              return (
                <details>
                  <summary>{`${versionsWithRows.length} version${versionsWithRows.length === 1 ? '' : 's'} by effort (${names.join(', ') || 'none'})`}</summary>
                  <VersionCrossTable rows={data.rows} column="effort" columns={names} versions={versionsWithRows} code={code} testId="version-effort-table" />
                  <ViewAsData api={`/api/version-efforts${qs}`} />
                </details>
              );
            }}
          </Loaded>
        </Section>
      )}
      <Section title={`${codeLabel(code)}: version × model`}>
        <Loaded query={cross} height={60}>
          {(data) => {
            const crossModels = [...new Set(data.rows.map((r) => r.model ?? 'unknown'))];
            const withCode = data.rows.filter((r) => (r.codes.find((c) => c.code === code)?.count ?? 0) > 0);
            const crossVersions = [...new Set(withCode.map((r) => r.version ?? 'unknown'))];
            return (
              <details>
                <summary>
                  {crossVersions.length === 0
                    ? `No ${codeLabel(code)} findings in any version × model cell`
                    : `${crossVersions.length} version${crossVersions.length === 1 ? '' : 's'} with findings, by model`}
                </summary>
                <VersionCrossTable rows={data.rows} column="model" columns={crossModels} versions={crossVersions} code={code} testId="version-model-table" />
                <ViewAsData api={`/api/version-models${qs}`} />
              </details>
            );
          }}
        </Loaded>
        <p className="muted small">{formatCount(rows.reduce((n, r) => n + r.tool_use_turns, 0))} tool-use turns in the selection.</p>
      </Section>
    </div>
  );
}

/** One row per version, one column per effort or model: the code's count and rate in each cell ('·' where the cell holds none). */
function VersionCrossTable({
  rows,
  column,
  columns,
  versions,
  code,
  testId,
}: {
  rows: ReadonlyArray<{
    version?: string | null;
    effort?: string | null;
    model?: string | null;
    codes: ReadonlyArray<Parameters<typeof formatCell>[0] & { code: string }>;
  }>;
  column: 'effort' | 'model';
  columns: readonly string[];
  versions: readonly string[];
  code: string;
  testId: string;
}) {
  return (
    <div className="table-scroll">
      <table className="table" data-testid={testId}>
        <thead>
          <tr>
            <th>version</th>
            {columns.map((m) => (
              <th key={m} className="num">
                {m}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v}>
              <td>{v}</td>
              {columns.map((m) => {
                const row = rows.find((r) => (r.version ?? 'unknown') === v && (r[column] ?? 'unknown') === m);
                const c = row?.codes.find((x) => x.code === code);
                return (
                  <td key={m} className="num">
                    {c ? formatCell(c) : '·'}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every version inside an opened range ("2.1.43~2.1.52"), plus the ones kept anyway. */
function expandRanges(all: readonly string[], opened: readonly string[], keep: readonly string[]): string[] {
  const out = new Set(keep);
  for (const o of opened) {
    const [lo, hi] = o.split('~');
    const i = all.indexOf(lo ?? '');
    const j = all.indexOf(hi ?? '');
    if (i >= 0 && j >= i) for (const v of all.slice(i, j + 1)) out.add(v);
  }
  return [...out];
}
