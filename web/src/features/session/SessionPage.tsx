import { Link, useParams } from 'react-router';
import { useSession } from '../../api/queries';
import { Loaded, Section, StatCard } from '../../components/ui';
import { agentLabel } from '../../lib/agents';
import { findingHref } from '../../lib/finding-links';
import { codeLabel, formatCount } from '../../lib/format';
import '../../components/finding.css';

const MARK_GLYPH = { compaction: '═', error: '✖', interrupt: '✋', api_error: '⚠', retry_nudge: '↻' } as const;

const MARK_LEGEND: ReadonlyArray<[keyof typeof MARK_GLYPH, string]> = [
  ['compaction', 'compaction'],
  ['error', 'error result'],
  ['interrupt', 'interrupt'],
  ['api_error', 'API error'],
  ['retry_nudge', 'retry nudge'],
];

const ROLE_TITLE = { main: 'Main', subagent: 'Subagent', copy: 'Copy (counted once)' } as const;

/** "3 files: the main transcript, 1 copy of it, 1 subagent transcript". */
function filesInWords(rows: ReadonlyArray<{ role: keyof typeof ROLE_TITLE }>): string {
  const n = (role: keyof typeof ROLE_TITLE) => rows.filter((r) => r.role === role).length;
  const parts = [
    ...(n('main') ? [n('main') === 1 ? 'the main transcript' : `${n('main')} main transcripts`] : []),
    ...(n('copy') ? [`${n('copy')} ${n('copy') === 1 ? 'copy' : 'copies'} (counted once)`] : []),
    ...(n('subagent') ? [`${n('subagent')} subagent transcript${n('subagent') === 1 ? '' : 's'}`] : []),
  ];
  return `${rows.length} file${rows.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** A session's files on a time line of their rows: where compactions, errors and findings fall. */
export function SessionPage() {
  const { hash = '' } = useParams();
  const session = useSession(hash);
  return (
    <div className="page session-page">
      <p className="small">
        <Link to="/findings">← All findings</Link>
      </p>
      <Loaded query={session} height={320}>
        {(s) => (
          <>
            <h1>
              Session <code>{s.session_hash}</code>
            </h1>
            <p className="muted small">
              {s.first_day ?? 'unknown day'}
              {s.last_day && s.last_day !== s.first_day ? ` – ${s.last_day}` : ''} · <span data-testid="session-files">{filesInWords(s.rows)}</span>
            </p>
            <div className="stats">
              <StatCard label="turns" value={formatCount(s.totals.turns)} testId="session-turns" />
              <StatCard label="tool calls" value={formatCount(s.totals.calls)} />
              <StatCard label="error results" value={formatCount(s.totals.errors)} />
              <StatCard label="compactions" value={formatCount(s.totals.compactions)} />
              <StatCard label="findings" value={formatCount(s.totals.findings)} />
            </div>
            <p className="muted small session-legend" data-testid="session-legend">
              On each time line, from the file's first row to its last:{' '}
              {MARK_LEGEND.map(([kind, words]) => (
                <span key={kind} className={`session-legend-item mark-${kind}`}>
                  {MARK_GLYPH[kind]} {words}
                </span>
              ))}
              <span className="session-legend-item session-finding">▼ a finding (opens it)</span>
            </p>
            {s.rows.map((f) => (
              <Section key={f.file} title={`${ROLE_TITLE[f.role]}: ${f.file}`}>
                <p className="muted small">
                  <span data-testid="session-file-agent">{agentLabel(f.agent)}</span> · {formatCount(f.rows)} rows · {formatCount(f.turns)} turns ·{' '}
                  {formatCount(f.calls)} calls · {formatCount(f.errors)} errors · {formatCount(f.compactions)} compactions
                  {f.duration_seconds !== null ? ` · ${Math.round(f.duration_seconds / 60)} min` : ''}
                  {f.status === 'unreadable' ? ' · the file cannot be read now' : ''}
                </p>
                <div className="session-line" role="img" aria-label={`Time line of ${f.rows} rows`}>
                  {f.marks.map((m) => (
                    <span
                      key={`m${m.line}`}
                      className={`session-mark mark-${m.kind}`}
                      style={{ left: `${(m.line / Math.max(1, f.rows)) * 100}%` }}
                      title={`${m.kind} at line ${m.line}`}
                    >
                      {MARK_GLYPH[m.kind]}
                    </span>
                  ))}
                  {f.findings.map((x) => (
                    <Link
                      key={x.id}
                      to={findingHref(x.id)}
                      className="session-finding"
                      style={{ left: `${(x.lines[0] / Math.max(1, f.rows)) * 100}%` }}
                      title={`${codeLabel(x.code)} at line ${x.lines[0]}`}
                      aria-label={`${codeLabel(x.code)} at line ${x.lines[0]}`}
                    >
                      ▼
                    </Link>
                  ))}
                </div>
                <ul className="link-list" data-testid="session-findings">
                  {f.findings.map((x) => (
                    <li key={x.id}>
                      <Link to={findingHref(x.id)}>{codeLabel(x.code)}</Link> <span className="muted small">line {x.lines[0]}</span>
                    </li>
                  ))}
                </ul>
              </Section>
            ))}
          </>
        )}
      </Loaded>
    </div>
  );
}
