import { useDiagnostics } from '../../api/queries';
import { Loaded, Section } from '../../components/ui';
import { agentLabel } from '../../lib/agents';

/** Per agent and version (versions are per agent): text rows against tool_use rows, and the row and block types the scanner did not know. */
export function DiagnosticsSection() {
  const diagnostics = useDiagnostics();
  return (
    <Section title="Per version: what the transcripts hold">
      <p className="muted small">
        Assistant rows with text against rows with a tool_use. Some versions stop writing text rows to transcripts; where this ratio collapses, leaked tool
        calls (which live in text) are undercounted. Row and block types the scanner does not know are counted here, never a failure.
      </p>
      <Loaded query={diagnostics} height={120}>
        {(data) => (
          <div className="table-scroll">
            <table className="table" data-testid="diagnostics-table">
              <thead>
                <tr>
                  <th>agent</th>
                  <th>version</th>
                  <th className="num">text rows</th>
                  <th className="num">tool_use rows</th>
                  <th className="num">text per tool_use</th>
                  <th>unknown row types</th>
                  <th>unknown block types</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((v) => (
                  <tr key={`${v.agent} ${v.version ?? 'unknown'}`}>
                    <td>{agentLabel(v.agent)}</td>
                    <td>{v.version ?? 'unknown'}</td>
                    <td className="num">{v.text_rows}</td>
                    <td className="num">{v.tool_use_rows}</td>
                    <td className="num">{v.text_rows_per_tool_use_row === null ? '–' : v.text_rows_per_tool_use_row.toFixed(2)}</td>
                    <td>{v.unknown_row_types.map((t) => `${t.type} (${t.count})`).join(', ') || '–'}</td>
                    <td>{v.unknown_block_types.map((t) => `${t.type} (${t.count})`).join(', ') || '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </Section>
  );
}
