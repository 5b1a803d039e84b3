import { Link } from 'react-router';
import type { FileProblem } from '../../../../shared/api-schemas';
import { FORMAT_HINTS, type FormatHint } from '../../../../shared/format-hints';
import { SALVAGE_ADVICE, SALVAGEABLE_CODES } from '../../../../shared/salvage-advice';
import { useDiagnostics, useFileProblems, useForget, useGoneFiles, useSalvagedFiles } from '../../api/queries';
import { EmptyState, ErrorBanner, Loaded, Section } from '../../components/ui';
import { formatBytes, formatTimestamp } from '../../lib/format';

const ERROR_HELP: Record<string, string> = {
  invalid_utf8: 'the line is not valid UTF-8',
  malformed_json: 'the line is not exactly one JSON value',
  duplicate_key: 'an object in the row has the same key twice',
  unreadable: 'the file or folder could not be read',
  invalid_structure: 'a row lacks the shape the detectors rely on',
  unknown_format: 'no reader recognised the file',
  entire_compact_transcript: "Entire's compact copy of a session, not a transcript",
  concatenated_rows: 'two rows on one line (a Claude Code writer bug)',
  gemini_text_only: 'a Gemini CLI conversation kept as text only (a shared or saved history), not a chat recording',
};

/** What to do about a failure, where one helps: salvage keeps a concatenated_rows file's complete rows. */
function FailureAdvice({ code }: { code: string | null }) {
  if (code === null || !SALVAGEABLE_CODES.includes(code)) return null;
  return (
    <span className="small" data-testid="salvage-advice">
      {' '}
      — <Link to="/folders">{SALVAGE_ADVICE.page}</Link>
    </span>
  );
}

const hintLabel = (hint: string | null) => (hint !== null && Object.hasOwn(FORMAT_HINTS, hint) ? FORMAT_HINTS[hint as FormatHint] : null);

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

export function FilesPage() {
  const files = useFileProblems();
  const diagnostics = useDiagnostics();
  const gone = useGoneFiles();
  const salvaged = useSalvagedFiles();
  const salvagedCount = salvaged.data?.rows.length ?? 0;
  const forget = useForget();
  return (
    <div className="page">
      <h1>Files</h1>
      <p className="muted">
        A file that cannot be read contributes nothing, and is never counted as clean; a file still being written (its last line is incomplete) is counted once
        it is complete. Nothing fails silently: every such file is listed here. A file counts only when a reader recognised it (a Claude Code transcript, a
        stream-json capture or an SSE log); an empty file (zero bytes or blank lines) is counted apart.
      </p>
      <Loaded query={files} height={200}>
        {(data) => (
          <>
            {data.files_empty > 0 ? (
              <p className="muted small" data-testid="files-empty">
                {data.files_empty} empty file{data.files_empty === 1 ? '' : 's'} (zero bytes or blank lines): neither read nor failed.
              </p>
            ) : null}
            {unknownFormatGroups(data.rows).length > 0 ? (
              <Section title="Not recognised (unknown_format), by what they look like">
                <ul data-testid="unknown-format-groups">
                  {unknownFormatGroups(data.rows).map((g) => (
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
                      </tr>
                    </thead>
                    <tbody>
                      {data.unknown_rows.map((f) => (
                        <tr key={f.id}>
                          <td>{f.folder}</td>
                          <td className="break">{f.file}</td>
                          <td>{f.unknown_row_types.map((t) => `${t.type} (${t.count})`).join(', ')}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </Section>
            ) : null}
            {data.rows.length === 0 && salvaged.isSuccess ? (
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
                <div className="table-scroll">
                  <table className="table" data-testid="files-table">
                    <thead>
                      <tr>
                        <th>status</th>
                        <th>folder</th>
                        <th>file</th>
                        <th>error</th>
                        <th>looks like</th>
                        <th className="num">line</th>
                        <th className="num">size</th>
                        <th>checked</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.rows.map((f) => (
                        <tr key={f.id} data-testid="file-row">
                          <td>
                            <span className={`badge badge-${f.status}`}>{f.status === 'failed' ? 'failed' : 'being written'}</span>
                          </td>
                          <td>{f.folder}</td>
                          <td className="break">{f.file}</td>
                          <td>
                            {f.error_code ? (
                              <span title={ERROR_HELP[f.error_code]}>
                                <code>{f.error_code}</code> <span className="muted small">{ERROR_HELP[f.error_code]}</span>
                                <FailureAdvice code={f.error_code} />
                              </span>
                            ) : (
                              '–'
                            )}
                          </td>
                          <td>{hintLabel(f.format_hint) ?? '–'}</td>
                          <td className="num">{f.error_line ?? '–'}</td>
                          <td className="num">{formatBytes(f.size)}</td>
                          <td>{formatTimestamp(f.indexed_at)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </Section>
            )}
          </>
        )}
      </Loaded>
      <Loaded query={salvaged} height={80}>
        {(data) =>
          data.rows.length === 0 ? null : (
            <Section title={`${data.rows.length} file${data.rows.length === 1 ? '' : 's'} salvaged (read around damaged lines)`}>
              <p className="muted small">
                Damaged files read with salvage, at your request for their folder: their complete rows are counted; the damaged lines are not, and a message a
                dropped torn row could belong to is counted nowhere. Untick salvage for the folder to fail them instead.
              </p>
              <div className="table-scroll">
                <table className="table" data-testid="salvaged-table">
                  <thead>
                    <tr>
                      <th>status</th>
                      <th>folder</th>
                      <th>file</th>
                      <th>first damage</th>
                      <th className="num">line</th>
                      <th className="num">damaged lines</th>
                      <th className="num">size</th>
                      <th>checked</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.rows.map((f) => (
                      <tr key={f.id} data-testid="salvaged-row">
                        <td>
                          <span className="badge badge-salvaged">salvaged</span>
                        </td>
                        <td>{f.folder}</td>
                        <td className="break">{f.file}</td>
                        <td>
                          {f.error_code ? (
                            <span title={ERROR_HELP[f.error_code]}>
                              <code>{f.error_code}</code> <span className="muted small">{ERROR_HELP[f.error_code]}</span>
                            </span>
                          ) : (
                            '–'
                          )}
                        </td>
                        <td className="num">{f.error_line ?? '–'}</td>
                        <td className="num">{f.damaged_lines ?? '–'}</td>
                        <td className="num">{formatBytes(f.size)}</td>
                        <td>{formatTimestamp(f.indexed_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Section>
          )
        }
      </Loaded>
      <Loaded query={gone} height={80}>
        {(data) =>
          data.rows.length === 0 ? null : (
            <Section
              title={`${data.rows.length} transcript${data.rows.length === 1 ? '' : 's'} kept after deletion (oldest ${
                data.rows
                  .map((f) => f.first_day ?? '')
                  .filter(Boolean)
                  .sort()[0] ?? 'unknown'
              })`}
              actions={
                <button
                  type="button"
                  className="danger"
                  data-testid="forget-gone"
                  disabled={forget.isPending}
                  onClick={() => {
                    if (window.confirm(`Forget what the index keeps of ${data.rows.length} transcripts deleted on disk? Their findings leave every figure.`))
                      forget.mutate({ gone: true });
                  }}
                >
                  Forget all
                </button>
              }
            >
              <ErrorBanner error={forget.error} />
              <p className="muted small">
                Deleted on disk (Claude Code deletes transcripts older than cleanupPeriodDays, 30 days by default); the index keeps their metadata, still
                counted in every figure, until you forget it here or with <code>forget --gone</code>.
              </p>
              <div className="table-scroll">
                <table className="table" data-testid="gone-table">
                  <thead>
                    <tr>
                      <th>folder</th>
                      <th>file</th>
                      <th>first day</th>
                      <th>deleted after</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {data.rows.map((f) => (
                      <tr key={f.id} data-testid="gone-row">
                        <td>{f.folder}</td>
                        <td className="break">{f.file}</td>
                        <td>{f.first_day ?? '–'}</td>
                        <td>{formatTimestamp(f.gone_since)}</td>
                        <td className="actions">
                          <button
                            type="button"
                            className="danger"
                            disabled={forget.isPending}
                            onClick={() => {
                              if (window.confirm(`Forget ${f.file}? Its findings leave every figure.`)) forget.mutate({ fileId: f.id });
                            }}
                          >
                            Forget
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Section>
          )
        }
      </Loaded>
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
                    <tr key={v.version ?? 'unknown'}>
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
    </div>
  );
}
