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
              const versions = [...new Set(data.rows.map(versionOf))];
              const names = [...new Set(data.rows.map((r) => r.effort ?? 'unknown'))];
              return (
                <FoldedCrossTable
                  summary={`${versions.length} version${versions.length === 1 ? '' : 's'} by effort (${names.join(', ') || 'none'})`}
                  table={{ rows: data.rows, column: 'effort', versions, code, versionOf, testId: 'version-effort-table' }}
                  api={`/api/version-efforts${qs}`}
                />
              );
            }}
          </Loaded>
        </Section>
      )}
      <Section title={`${codeLabel(code)}: version × model`}>
        <Loaded query={cross} height={60}>
          {(data) => {
            const withCode = data.rows.filter((r) => (r.codes.find((c) => c.code === code)?.count ?? 0) > 0);
            const versions = [...new Set(withCode.map(versionOf))];
            return (
              <FoldedCrossTable
                summary={
                  versions.length === 0
                    ? `No ${codeLabel(code)} findings in any version × model cell`
                    : `${versions.length} version${versions.length === 1 ? '' : 's'} with findings, by model`
                }
                table={{ rows: data.rows, column: 'model', versions, code, versionOf, testId: 'version-model-table' }}
                api={`/api/version-models${qs}`}
              />
            );
          }}
        </Loaded>
        <p className="muted small">{formatCount(rows.reduce((n, r) => n + r.tool_use_turns, 0))} tool-use turns in the selection.</p>
      </Section>
    </>
  );
}

/** A cross table folded under its summary line, with the answer it was drawn from. */
function FoldedCrossTable({ summary, table, api }: { summary: string; table: CrossTableProps; api: string }) {
  return (
    <details>
      <summary>{summary}</summary>
      <VersionCrossTable {...table} />
      <ViewAsData api={api} />
    </details>
  );
}

type CrossTableProps = Parameters<typeof VersionCrossTable>[0];

/**
 * One row per version, one column per effort or model (each value the rows hold, `unknown` where none): the code's
 * count and rate in each cell ('·' where the cell holds none).
 */
function VersionCrossTable({
  rows,
  column,
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
  versions: readonly string[];
  code: string;
  /** How a row's version reads (`codex 0.146.0` when several agents are shown): the table's row key. */
  versionOf: (row: { agent: string; version: string | null }) => string;
  testId: string;
}) {
  const columns = [...new Set(rows.map((r) => r[column] ?? 'unknown'))];
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
