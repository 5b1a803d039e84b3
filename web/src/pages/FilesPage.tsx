import { useFileProblems } from '../api/queries';
import { EmptyState, ErrorBanner, Section, Skeleton } from '../components/ui';
import { formatBytes, formatTimestamp } from '../lib/format';

const ERROR_HELP: Record<string, string> = {
  invalid_utf8: 'the line is not valid UTF-8',
  malformed_json: 'the line is not exactly one JSON value',
  duplicate_key: 'an object in the row has the same key twice',
  unreadable: 'the file or folder could not be read',
  invalid_structure: 'a row lacks the shape the detectors rely on',
};

export function FilesPage() {
  const files = useFileProblems();
  return (
    <div className="page">
      <h1>Files</h1>
      <p className="muted">
        A file that fails to scan contributes nothing, and is never counted as clean; a file still being written (its last line is
        incomplete) is counted once it is complete. Nothing fails silently: every such file is listed here.
      </p>
      <ErrorBanner error={files.error} />
      {!files.data ? (
        <Skeleton height={200} />
      ) : files.data.items.length === 0 ? (
        <EmptyState title="Every file scanned cleanly">
          <p>No file failed and none is being written.</p>
        </EmptyState>
      ) : (
        <Section title={`${files.data.items.length} file${files.data.items.length === 1 ? '' : 's'} not counted`}>
          <div className="table-scroll">
            <table className="table" data-testid="files-table">
              <thead>
                <tr>
                  <th>status</th>
                  <th>folder</th>
                  <th>file</th>
                  <th>error</th>
                  <th className="num">line</th>
                  <th className="num">size</th>
                  <th>checked</th>
                </tr>
              </thead>
              <tbody>
                {files.data.items.map((f) => (
                  <tr key={f.id} data-testid="file-row">
                    <td><span className={`badge badge-${f.status}`}>{f.status === 'failed' ? 'failed' : 'being written'}</span></td>
                    <td>{f.root}</td>
                    <td className="break">{f.file}</td>
                    <td>{f.error_code ? <span title={ERROR_HELP[f.error_code]}><code>{f.error_code}</code> <span className="muted small">{ERROR_HELP[f.error_code]}</span></span> : '–'}</td>
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
    </div>
  );
}
