import { useVersionEfforts, useVersionModels } from '../../api/queries';
import { formatCell } from '../../charts/scale';
import { Loaded, Section } from '../../components/ui';
import { ViewAsData } from '../../components/ViewAsData';
import { agentVersion } from '../../lib/agents';
import { codeLabel, formatCount } from '../../lib/format';
import { toQueryString } from '../../lib/url-filters';
import type { VersionsPageState } from './use-versions-page';

/** Version × effort (where efforts are recorded) and version × model, each folded under a summary line. */
export function CrossSections({ state }: { state: VersionsPageState }) {
  const { page, code, rows, effortRecorded } = state;
  const cross = useVersionModels(page.filters);
  const crossEfforts = useVersionEfforts(page.filters);
  const qs = toQueryString(page.filters);
  // Every row names its agent (versions are per agent): with several agents shown a version reads `codex 0.146.0`.
  const versionOf = (r: { agent: string; version: string | null }) => agentVersion(r.agent, r.version, page.mixed);
  return (
    <>
      {effortRecorded && (
        <Section title={`${codeLabel(code)}: version × effort`}>
          <Loaded query={crossEfforts} height={60}>
            {(data) => {
              const names = [...new Set(data.rows.map((r) => r.effort ?? 'unknown'))];
              const versionsWithRows = [...new Set(data.rows.map(versionOf))];
              return (
                <details>
                  <summary>{`${versionsWithRows.length} version${versionsWithRows.length === 1 ? '' : 's'} by effort (${names.join(', ') || 'none'})`}</summary>
                  <VersionCrossTable
                    rows={data.rows}
                    column="effort"
                    columns={names}
                    versions={versionsWithRows}
                    code={code}
                    versionOf={versionOf}
                    testId="version-effort-table"
                  />
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
            const crossVersions = [...new Set(withCode.map(versionOf))];
            return (
              <details>
                <summary>
                  {crossVersions.length === 0
                    ? `No ${codeLabel(code)} findings in any version × model cell`
                    : `${crossVersions.length} version${crossVersions.length === 1 ? '' : 's'} with findings, by model`}
                </summary>
                <VersionCrossTable
                  rows={data.rows}
                  column="model"
                  columns={crossModels}
                  versions={crossVersions}
                  code={code}
                  versionOf={versionOf}
                  testId="version-model-table"
                />
                <ViewAsData api={`/api/version-models${qs}`} />
              </details>
            );
          }}
        </Loaded>
        <p className="muted small">{formatCount(rows.reduce((n, r) => n + r.tool_use_turns, 0))} tool-use turns in the selection.</p>
      </Section>
    </>
  );
}

/** One row per version, one column per effort or model: the code's count and rate in each cell ('·' where the cell holds none). */
function VersionCrossTable({
  rows,
  column,
  columns,
  versions,
  code,
  versionOf,
  testId,
}: {
  rows: ReadonlyArray<{
    agent: string;
    version: string | null;
    effort?: string | null;
    model?: string | null;
    codes: ReadonlyArray<Parameters<typeof formatCell>[0] & { code: string }>;
  }>;
  column: 'effort' | 'model';
  columns: readonly string[];
  versions: readonly string[];
  code: string;
  /** How a row's version reads (`codex 0.146.0` when several agents are shown): the table's row key. */
  versionOf: (row: { agent: string; version: string | null }) => string;
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
                const row = rows.find((r) => versionOf(r) === v && (r[column] ?? 'unknown') === m);
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
