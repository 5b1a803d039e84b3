import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { Finding } from '../../../../shared/api-schemas';
import { MiddleEllipsis } from '../../components/ui';
import { agentLabel, agentVersion } from '../../lib/agents';
import { codeLabel, shortDigest } from '../../lib/format';
import { CopyButton } from './CopyButton';

const ROW_HEIGHT = 36;

/**
 * The findings as a virtual table (only the rows in view are drawn), asking for the next page as
 * the end comes into view. Each row names its agent; with several agents shown the version reads
 * `agent version` (issue 34).
 */
export function FindingList({
  items,
  total,
  selectedId,
  mixed,
  onOpen,
  onNearEnd,
}: {
  items: readonly Finding[];
  total: number;
  selectedId: string | null;
  mixed: boolean;
  onOpen: (f: Finding) => void;
  onNearEnd: () => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: items.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= items.length - 20) onNearEnd();
  }, [lastIndex, items.length, onNearEnd]);

  return (
    <div className="vtable" role="table" aria-label="Findings" aria-rowcount={total}>
      <div className="vrow vhead" role="row">
        <span role="columnheader">code</span>
        <span role="columnheader">day</span>
        <span role="columnheader">agent</span>
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
                onClick={() => onOpen(f)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') onOpen(f);
                }}
              >
                <span role="cell" className="ellipsis">
                  {codeLabel(f.code)}
                </span>
                <span role="cell">{f.day ?? 'unknown'}</span>
                <span role="cell" className="ellipsis" data-testid="finding-agent">
                  {agentLabel(f.agent)}
                </span>
                <span role="cell" className="ellipsis" data-testid="finding-version">
                  {f.version === null && !mixed ? '–' : agentVersion(f.agent, f.version, mixed)}
                </span>
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
  );
}
