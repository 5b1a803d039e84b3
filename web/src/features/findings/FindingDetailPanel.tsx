import { Link } from 'react-router';
import type { Finding } from '../../../../shared/api-schemas';
import { agentLabel } from '../../lib/agents';
import { findingHref } from '../../lib/finding-links';
import { formatDay } from '../../lib/format';
import { CopyButton } from './CopyButton';

/** The selected finding's metadata beside the list (never the transcript's words). */
export function FindingDetailPanel({ finding, onClose }: { finding: Finding; onClose: () => void }) {
  const rows: Array<[string, string]> = [
    ['code', finding.code],
    ['day (UTC)', formatDay(finding.day)],
    ['agent', agentLabel(finding.agent)],
    [`${agentLabel(finding.agent)} version`, finding.version ?? 'unknown'],
    ['model', finding.model ?? 'unknown'],
    ['folder', finding.folder],
    ['file', finding.file],
    ['lines', finding.lines[0] === finding.lines[1] ? String(finding.lines[0]) : `${finding.lines[0]}–${finding.lines[1]}`],
    ['source lines', finding.source_lines.join(', ')],
    ['block types', finding.block_types.join(', ') || '–'],
    ['signed thinking', finding.signed_thinking ? 'yes' : 'no'],
    ['thread', finding.sidechain ? 'subagent' : 'main'],
    ['counted in rates', finding.counted ? 'yes' : 'no: a copy of a message counted in another file'],
    ...Object.entries(finding.details).map(([k, v]): [string, string] => [k.replaceAll('_', ' '), String(v)]),
    ['evidence SHA-256', finding.evidence_sha256],
  ];
  return (
    <aside className="detail" data-testid="finding-detail" aria-label="Finding metadata">
      <header className="card-header">
        <h2>Finding {finding.id}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      <p className="muted small">Metadata only: the transcript's words never leave your machine's files. Open the file at these lines to read them.</p>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k} className="dl-row">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <CopyButton text={finding.evidence_sha256} />
      <p>
        <Link to={findingHref(finding.id)} data-testid="open-finding">
          Open the finding: rows around it, what it belongs with, its session →
        </Link>
      </p>
    </aside>
  );
}
