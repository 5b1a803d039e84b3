import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { FileProblem } from '../../../../shared/api-schemas';
import { FORMAT_HINTS, type FormatHint } from '../../../../shared/format-hints';
import { SALVAGE_ADVICE, SALVAGEABLE_CODES } from '../../../../shared/salvage-advice';
import { agentLabel } from '../../lib/agents';
import { formatBytes, formatTimestamp } from '../../lib/format';

export const ERROR_HELP: Record<string, string> = {
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

export const hintLabel = (hint: string | null) => (hint !== null && Object.hasOwn(FORMAT_HINTS, hint) ? FORMAT_HINTS[hint as FormatHint] : null);

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

function ErrorCell({ code, advice }: { code: string | null; advice: boolean }) {
  if (!code) return <>–</>;
  return (
    <span title={ERROR_HELP[code]}>
      <code>{code}</code> <span className="muted small">{ERROR_HELP[code]}</span>
      {advice && <FailureAdvice code={code} />}
    </span>
  );
}

const STATUS_WORDS: Record<FileProblem['status'], string> = { failed: 'failed', in_progress: 'being written', gone: 'gone', salvaged: 'salvaged' };

type Column = { header: ReactNode; num?: boolean; className?: string; cell: (f: FileProblem) => ReactNode };

/** The columns a file table can show, by name: each table of the page picks its own, in its order. */
export const FILE_COLUMNS = {
  status: { header: 'status', cell: (f) => <span className={`badge badge-${f.status}`}>{STATUS_WORDS[f.status]}</span> },
  agent: { header: 'agent', cell: (f) => <span data-testid="file-agent">{agentLabel(f.agent)}</span> },
  folder: { header: 'folder', cell: (f) => f.folder },
  file: { header: 'file', className: 'break', cell: (f) => f.file },
  error: { header: 'error', cell: (f) => <ErrorCell code={f.error_code} advice /> },
  damage: { header: 'first damage', cell: (f) => <ErrorCell code={f.error_code} advice={false} /> },
  hint: { header: 'looks like', cell: (f) => hintLabel(f.format_hint) ?? '–' },
  line: { header: 'line', num: true, cell: (f) => f.error_line ?? '–' },
  damaged: { header: 'damaged lines', num: true, cell: (f) => f.damaged_lines ?? '–' },
  size: { header: 'size', num: true, cell: (f) => formatBytes(f.size) },
  checked: { header: 'checked', cell: (f) => formatTimestamp(f.indexed_at) },
  firstDay: { header: 'first day', cell: (f) => f.first_day ?? '–' },
  goneSince: { header: 'deleted after', cell: (f) => formatTimestamp(f.gone_since) },
} satisfies Record<string, Column>;

export type FileColumn = keyof typeof FILE_COLUMNS;

/** One table of files (failed, salvaged or gone): the columns named, and an action per row where given. */
export function FileTable({
  rows,
  columns,
  testId,
  rowTestId,
  action,
}: {
  rows: readonly FileProblem[];
  columns: readonly FileColumn[];
  testId: string;
  rowTestId: string;
  action?: (f: FileProblem) => ReactNode;
}) {
  const cols: Column[] = columns.map((c) => FILE_COLUMNS[c]);
  return (
    <div className="table-scroll">
      <table className="table" data-testid={testId}>
        <thead>
          <tr>
            {cols.map((c, i) => (
              <th key={columns[i]} className={c.num ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
            {action && <th />}
          </tr>
        </thead>
        <tbody>
          {rows.map((f) => (
            <tr key={f.id} data-testid={rowTestId}>
              {cols.map((c, i) => (
                <td key={columns[i]} className={c.num ? 'num' : c.className}>
                  {c.cell(f)}
                </td>
              ))}
              {action && <td className="actions">{action(f)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
