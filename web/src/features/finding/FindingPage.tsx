import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { FindingLink } from '../../../../shared/api-schemas';
import { describeDetail } from '../../../../shared/finding-details';
import { useFindingDetail } from '../../api/queries';
import { Loaded, Section, WarningBanner } from '../../components/ui';
import { agentLabel } from '../../lib/agents';
import { findingHref, sessionHref } from '../../lib/finding-links';
import { codeLabel, formatDay } from '../../lib/format';
import { useUrlParams } from '../../lib/use-url-params';
import { TurnStrip } from './TurnStrip';
import '../../components/finding.css';

const CONTEXTS = [5, 15, 30, 60, 100];
const lines = (l: [number, number]) => (l[0] === l[1] ? String(l[0]) : `${l[0]}–${l[1]}`);

function LinkList({ items, empty, testId }: { items: FindingLink[]; empty: string; testId: string }) {
  if (items.length === 0) return <p className="muted small">{empty}</p>;
  return (
    <ul className="link-list" data-testid={testId}>
      {items.map((l) => (
        <li key={l.id}>
          <Link to={findingHref(l.id)}>{codeLabel(l.code)}</Link> <span className="muted small">lines {lines(l.lines)}</span>{' '}
          <span className="muted small ellipsis">{l.file}</span>
        </li>
      ))}
    </ul>
  );
}

function CopyCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="local-command">
      <code data-testid="local-command">{command}</code>
      <button
        type="button"
        className="copy"
        onClick={() =>
          void navigator.clipboard?.writeText(command).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1200);
          })
        }
      >
        {copied ? 'copied' : 'copy'}
      </button>
    </div>
  );
}

/** One finding as its own view: metadata, the rows around it, what it belongs with, its session. */
export function FindingPage() {
  const { id = '' } = useParams();
  const [search, setParams] = useUrlParams();
  const context = Math.min(100, Math.max(0, Number(search.get('context') ?? 15) || 15));
  const detail = useFindingDetail(id, context);
  return (
    <div className="page finding-page">
      <p className="small">
        <Link to="/findings">← All findings</Link>
      </p>
      <Loaded query={detail} height={480}>
        {(d) => {
          const f = d;
          const facts: Array<[string, string]> = [
            ['day (UTC)', formatDay(f.day)],
            ['agent', agentLabel(f.agent)],
            [`${agentLabel(f.agent)} version`, f.version ?? 'unknown'],
            ['model', f.model ?? 'unknown'],
            ['folder / file', `${f.folder}/${f.file}`],
            ['lines', lines(f.lines)],
            ['source lines', f.source_lines.join(', ')],
            ['block types', f.block_types.join(', ') || '–'],
            ['thread', f.sidechain ? 'subagent' : 'main'],
            ['counted in rates', f.counted ? 'yes' : 'no: a copy of a message counted in another file'],
            ...Object.entries(f.details).map(([k, v]) => describeDetail(k, v)),
            ['evidence SHA-256', f.evidence_sha256],
          ];
          return (
            <>
              <h1 data-testid="finding-title">{codeLabel(f.code)}</h1>
              <dl className="facts">
                {facts.map(([k, v]) => (
                  <div key={k} className="dl-row">
                    <dt>{k}</dt>
                    <dd>{v}</dd>
                  </div>
                ))}
              </dl>
              <Section
                title="Rows around it"
                actions={
                  <label className="small">
                    rows before and after{' '}
                    <select value={context} onChange={(e) => setParams({ context: e.target.value === '15' ? undefined : e.target.value })}>
                      {CONTEXTS.map((c) => (
                        <option key={c} value={c}>
                          {c}
                        </option>
                      ))}
                    </select>
                  </label>
                }
              >
                {d.strip.status === 'ok' ? (
                  <>
                    <p className="muted small">
                      Re-read just now from your own file, metadata only (row kinds, block types, stop reasons, built-in tool names, gaps). The finding's rows
                      are highlighted.
                    </p>
                    <TurnStrip rows={d.strip.rows} />
                  </>
                ) : (
                  <WarningBanner>
                    <span data-testid="strip-status">{d.strip.message}</span>
                  </WarningBanner>
                )}
              </Section>
              <Section title="Belongs with">
                <LinkList items={d.chain} empty="No other finding belongs with this one." testId="chain-links" />
              </Section>
              <Section title="Same session" actions={d.session_hash ? <Link to={sessionHref(d.session_hash)}>Session time line</Link> : undefined}>
                <LinkList items={d.session} empty="No other finding in this session." testId="session-links" />
              </Section>
              {d.local_command !== null ? (
                <Section title="Open it on your machine">
                  <p className="muted small">
                    Run this in the folder you added as “{f.folder}” to read these lines yourself. Shown only here, never in an export.
                  </p>
                  <CopyCommand command={d.local_command} />
                </Section>
              ) : (
                <Section title="Transcript deleted on disk">
                  <p className="muted small" data-testid="gone-note">
                    The transcript was deleted on disk after {d.gone_since?.slice(0, 10)} (Claude Code deletes old transcripts). The index keeps this finding's
                    metadata and evidence digest; its lines can no longer be shown.
                  </p>
                </Section>
              )}
            </>
          );
        }}
      </Loaded>
    </div>
  );
}
