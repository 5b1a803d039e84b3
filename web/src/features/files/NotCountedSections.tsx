import type { FileProblem, FilesResponse } from '../../../../shared/api-schemas';
import { EmptyState, Section } from '../../components/ui';
import { agentLabel } from '../../lib/agents';
import { FileTable, hintLabel } from './FileTable';

/** unknown_format files grouped by what they look like (most first); files with no hint as "not recognised". */
function unknownFormatGroups(rows: readonly FileProblem[]): Array<{ label: string; count: number }> {
  const groups = new Map<string, number>();
  for (const r of rows) {
    if (r.error_code !== 'unknown_format') continue;
    const label = hintLabel(r.format_hint) ?? 'not recognised (no hint)';
    groups.set(label, (groups.get(label) ?? 0) + 1);
  }
  return [...groups].map(([label, count]) => ({ label, count })).sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : 1));
}

/** Empty files, unknown formats, files read with unknown row types, and the files not counted (failed, being written). */
export function NotCountedSections({ data, salvagedCount }: { data: FilesResponse; salvagedCount: number | null }) {
  const groups = unknownFormatGroups(data.rows);
  return (
    <>
      {data.files_empty > 0 ? (
        <p className="muted small" data-testid="files-empty">
          {data.files_empty} empty file{data.files_empty === 1 ? '' : 's'} (zero bytes or blank lines): neither read nor failed.
        </p>
      ) : null}
      {groups.length > 0 ? (
        <Section title="Not recognised (unknown_format), by what they look like">
          <ul data-testid="unknown-format-groups">
            {groups.map((g) => (
              <li key={g.label}>
                {g.label}: {g.count} file{g.count === 1 ? '' : 's'}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {data.unknown_rows.length > 0 ? (
        <Section title="Read, with rows of types the reader does not know">
          <div className="table-scroll">
            <table className="table" data-testid="unknown-rows-table">
              <thead>
                <tr>
                  <th>folder</th>
                  <th>file</th>
                  <th>unknown row types</th>
                  <th>agent</th>
                </tr>
              </thead>
              <tbody>
                {data.unknown_rows.map((f) => (
                  <tr key={f.id}>
                    <td>{f.folder}</td>
                    <td className="break">{f.file}</td>
                    <td>{f.unknown_row_types.map((t) => `${t.type} (${t.count})`).join(', ')}</td>
                    <td>{agentLabel(f.agent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      ) : null}
      {data.rows.length === 0 && salvagedCount !== null ? (
        salvagedCount === 0 ? (
          <EmptyState title="Every file read cleanly">
            <p>No file failed, none is being written and none was salvaged.</p>
          </EmptyState>
        ) : (
          <EmptyState title="No file failed or is being written">
            <p>
              But {salvagedCount} file{salvagedCount === 1 ? ' was' : 's were'} damaged and read with salvage (listed below): not every file read cleanly.
            </p>
          </EmptyState>
        )
      ) : data.rows.length === 0 ? null : (
        <Section title={`${data.rows.length} file${data.rows.length === 1 ? '' : 's'} not counted`}>
          <FileTable
            rows={data.rows}
            columns={['status', 'folder', 'file', 'error', 'hint', 'line', 'size', 'checked', 'agent']}
            testId="files-table"
            rowTestId="file-row"
          />
        </Section>
      )}
    </>
  );
}
