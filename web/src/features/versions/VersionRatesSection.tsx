import { whiskerSeries } from '../../charts/chart-data';
import { codeColor } from '../../charts/colors';
import { RateWhiskerChart } from '../../charts/RateWhiskerChart';
import { describeFold, foldVersions } from '../../charts/scale';
import { RateTable } from '../../components/RateTable';
import { Loaded, Section } from '../../components/ui';
import { ViewAsData } from '../../components/ViewAsData';
import { agentLabel } from '../../lib/agents';
import { rateRowsCsv } from '../../lib/csv';
import { codeLabel } from '../../lib/format';
import type { KeyedRow } from '../../lib/keyed-rows';
import { toQueryString } from '../../lib/url-filters';
import { expandRanges, type VersionsPageState } from './use-versions-page';

/**
 * The charted code per version, with the table of every code: one chart for one agent, one chart per agent
 * when several are shown (versions are per agent: issue 34), the table's versions then named `agent version`.
 */
export function VersionRatesSection({ state }: { state: VersionsPageState }) {
  const { page, versions, code, per, found } = state;
  return (
    <Section title={`${codeLabel(code)} per 1,000 ${per}, by version`}>
      <Loaded query={versions} height={300}>
        {(data) => (
          <>
            {versions.byAgent === null ? (
              <VersionChart rows={data.rows} state={state} testId="versions-chart" />
            ) : (
              versions.byAgent.map((a) => (
                <div key={a.agent} className="agent-series" data-testid="agent-series" data-agent={a.agent}>
                  <h3>{agentLabel(a.agent)}</h3>
                  <VersionChart rows={a.rows} state={state} testId={`versions-chart-${a.agent}`} />
                </div>
              ))
            )}
            <RateTable rows={data.rows} keyName="version" testId="versions-table" codes={found} minTurns={200} />
            <ViewAsData api={`/api/versions${toQueryString(page.filters)}`} csv={{ name: 'versions.csv', rows: () => rateRowsCsv(data.rows, 'version') }} />
          </>
        )}
      </Loaded>
    </Section>
  );
}

/** One agent's versions as whiskers, the thinnest pooled into ranges (a click opens one). */
function VersionChart({ rows, state, testId }: { rows: KeyedRow[]; state: VersionsPageState; testId: string }) {
  const { page, code, per, opened, firstBad } = state;
  const keep = [...firstBad, ...opened.flatMap((o) => o.split('~'))];
  const columns = foldVersions(rows, {
    maxColumns: 30,
    keep: expandRanges(
      rows.map((r) => r.key ?? 'unknown'),
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
        testId={testId}
        code={code}
        per={per}
        firstBad={firstBad}
        onPick={(key) => {
          const col = folded.find((c) => c.key === key);
          if (col) page.setParams({ open: [...opened, `${col.versions[0]}~${col.versions[col.versions.length - 1]}`].join(',') });
        }}
      />
      {folded.length > 0 && (
        <p className="muted small" data-testid="fold-note">
          {rows.length} versions drawn as {columns.length} columns: {folded.reduce((n, c) => n + c.versions.length, 0)} versions with the fewest tool-use turns
          are pooled into {folded.length} ranges (a range's bar is the pooled rate). Click a range to open it.
          {opened.length > 0 && (
            <>
              {' '}
              <button type="button" className="linkish" onClick={() => page.setParams({ open: undefined })}>
                Fold again
              </button>
            </>
          )}
        </p>
      )}
    </>
  );
}
