import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Finding } from '../../../../shared/api-schemas';
import { useFindings, useVersions } from '../../api/queries';
import { FilterBar } from '../../components/FilterBar';
import { EmptyState, Loaded, MiddleEllipsis } from '../../components/ui';
import { findingHref } from '../../lib/finding-links';
import { codeLabel, formatCount, formatDay, shortDigest } from '../../lib/format';
import { filtersFromSearch } from '../../lib/url-filters';
import { useUrlParams } from '../../lib/use-url-params';

const ROW_HEIGHT = 36;

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="copy"
      aria-label="Copy evidence digest"
      onClick={(e) => {
        e.stopPropagation();
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1200);
        });
      }}
    >
      {copied ? 'copied' : 'copy'}
    </button>
  );
}

function FindingDetail({ finding, onClose }: { finding: Finding; onClose: () => void }) {
  const rows: Array<[string, string]> = [
    ['code', finding.code],
    ['day (UTC)', formatDay(finding.day)],
    ['Claude Code version', finding.version ?? 'unknown'],
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

export function FindingsPage() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const sort = search.get('sort') === 'day_asc' ? 'day_asc' : 'day_desc';
  const findings = useFindings(filters, sort);
  const versions = useVersions({});
  const items = findings.data?.pages.flatMap((p) => p.rows) ?? [];
  const total = findings.data?.pages[0]?.total ?? 0;
  const selectedId = search.get('finding');
  const selected = items.find((f) => f.id === selectedId) ?? null;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: items.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems.at(-1)?.index ?? -1;

  useEffect(() => {
    if (lastIndex >= items.length - 20 && findings.hasNextPage && !findings.isFetchingNextPage) void findings.fetchNextPage();
  }, [lastIndex, items.length, findings]);

  const setParam = (key: string, value: string | undefined) => setParams({ [key]: value });
  const navigate = useNavigate();
  // On a phone the detail opens as its own view instead of a panel far below the list.
  const open = (f: Finding) => {
    if (window.matchMedia?.('(max-width: 720px)').matches) navigate(findingHref(f.id));
    else setParam('finding', f.id);
  };
  const sortToggle = (
    <label>
      Sort{' '}
      <select value={sort} onChange={(e) => setParam('sort', e.target.value === 'day_asc' ? 'day_asc' : undefined)}>
        <option value="day_desc">newest first</option>
        <option value="day_asc">oldest first</option>
      </select>
    </label>
  );

  return (
    <div className="page">
      <h1>Findings</h1>
      <FilterBar versions={(versions.data?.rows ?? []).flatMap((r) => (r.key ? [r.key] : []))} extra={sortToggle} />
      <Loaded query={findings} height={400}>
        {() =>
          items.length === 0 ? (
            <EmptyState title="No findings">
              <p>No lost tool calls match these filters{search.size ? '; try clearing them' : ''}.</p>
            </EmptyState>
          ) : (
            <div className="findings-layout">
              <div className="card findings-card">
                <div className="muted small" data-testid="findings-total">
                  {formatCount(total)} findings (every copy; “counted” marks the one used in rates)
                </div>
                <div className="vtable" role="table" aria-label="Findings" aria-rowcount={total}>
                  <div className="vrow vhead" role="row">
                    <span role="columnheader">code</span>
                    <span role="columnheader">day</span>
                    <span role="columnheader">version</span>
                    <span role="columnheader">model</span>
                    <span role="columnheader">folder / file</span>
                    <span role="columnheader">lines</span>
                    <span role="columnheader">blocks</span>
                    <span role="columnheader">signed</span>
                    <span role="columnheader">digest</span>
                  </div>
                  <div ref={scrollRef} className="vbody" data-testid="findings-scroll">
                    <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                      {virtualItems.map((v) => {
                        const f = items[v.index]!;
                        return (
                          <div
                            key={f.id}
                            role="row"
                            tabIndex={0}
                            className={`vrow${f.id === selectedId ? ' selected' : ''}${f.counted ? '' : ' copy-row'}`}
                            data-testid="finding-row"
                            style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}
                            onClick={() => open(f)}
                            onKeyDown={(e) => {
                              if (e.key === 'Enter' || e.key === ' ') open(f);
                            }}
                          >
                            <span role="cell" className="ellipsis">
                              {codeLabel(f.code)}
                            </span>
                            <span role="cell">{f.day ?? 'unknown'}</span>
                            <span role="cell">{f.version ?? '–'}</span>
                            <span role="cell" className="ellipsis">
                              {f.model ?? '–'}
                            </span>
                            <span role="cell" className="ellipsis">
                              <MiddleEllipsis text={`${f.folder}/${f.file}`} testId="finding-path" />
                            </span>
                            <span role="cell">{f.lines[0] === f.lines[1] ? f.lines[0] : `${f.lines[0]}–${f.lines[1]}`}</span>
                            <span role="cell" className="ellipsis">
                              {f.block_types.join(', ')}
                            </span>
                            <span role="cell">{f.signed_thinking ? 'yes' : 'no'}</span>
                            <span role="cell" className="digest">
                              <code>{shortDigest(f.evidence_sha256)}</code> <CopyButton text={f.evidence_sha256} />
                            </span>
                          </div>
                        );
                      })}
                    </div>
                  </div>
                </div>
                {findings.isFetchingNextPage && <div className="muted small">Loading more…</div>}
              </div>
              {selected && <FindingDetail finding={selected} onClose={() => setParam('finding', undefined)} />}
            </div>
          )
        }
      </Loaded>
    </div>
  );
}
