import type { StripRow } from '../../../../shared/api-schemas';

/** One glyph and colour class per row kind, so a strip reads in a second. */
export function rowKind(r: StripRow): { glyph: string; kind: string; label: string } {
  switch (r.synthetic) {
    case 'compact_boundary':
    case 'microcompact_boundary':
      return { glyph: '═', kind: 'compaction', label: 'compaction boundary' };
    case 'compact_summary':
      return { glyph: '≡', kind: 'compaction', label: 'compaction summary' };
    case 'retry_nudge':
      return { glyph: '↻', kind: 'harness', label: 'retry nudge' };
    case 'retry_exhausted':
      return { glyph: '⛔', kind: 'error', label: 'retry also failed' };
    case 'api_error':
      return { glyph: '⚠', kind: 'error', label: 'API error' };
    case 'api_retry':
      return { glyph: '⟳', kind: 'harness', label: 'API retry' };
    case 'interrupt':
      return { glyph: '✋', kind: 'interrupt', label: 'interrupt' };
    case 'hook':
      return { glyph: '⚓', kind: 'meta', label: 'hook' };
    case 'progress':
      return { glyph: '…', kind: 'meta', label: 'progress' };
    case 'meta':
      return { glyph: '·', kind: 'meta', label: 'harness note' };
  }
  if (r.is_error) return { glyph: '✖', kind: 'error', label: 'error result' };
  if (r.type === 'assistant')
    return r.tool_calls.length > 0 ? { glyph: '⚙', kind: 'call', label: 'tool call' } : { glyph: '◆', kind: 'assistant', label: 'assistant' };
  if (r.type === 'user')
    return r.blocks.includes('tool_result') ? { glyph: '↩', kind: 'result', label: 'tool result' } : { glyph: '▶', kind: 'user', label: 'user' };
  return { glyph: '·', kind: 'meta', label: r.type };
}

const gap = (s: number | null) => (s === null ? '' : s < 60 ? `+${s}s` : s < 3600 ? `+${Math.round(s / 60)}m` : `+${(s / 3600).toFixed(1)}h`);

/** The rows around a finding, metadata only: glyph, line, kind, blocks, stop reason, calls, gap. */
export function TurnStrip({ rows }: { rows: StripRow[] }) {
  return (
    <>
      <div className="strip-head" data-testid="turn-strip-head" aria-hidden="true">
        <span />
        <span className="strip-line">line</span>
        <span>row</span>
        <span>blocks</span>
        <span>tool calls</span>
        <span>stop reason · output tokens</span>
        <span className="strip-gap">gap</span>
      </div>
      <ol className="strip" aria-label="Rows around the finding" data-testid="turn-strip">
        {rows.map((r) => {
          const k = rowKind(r);
          return (
            <li key={r.line} className={`strip-row kind-${k.kind}${r.in_finding ? ' in-finding' : ''}`} data-line={r.line} title={k.label}>
              <span className="strip-glyph" aria-hidden="true">
                {k.glyph}
              </span>
              <span className="strip-line">{r.line}</span>
              <span className="strip-what">
                {k.label}
                {r.sidechain ? ' · subagent' : ''}
              </span>
              <span className="strip-blocks">{r.blocks.join(' › ') || r.sub_kind || '–'}</span>
              <span className="strip-calls">
                {r.tool_calls.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: calls of one row never reorder; the index is their position
                  <code key={i} className={c.empty_input ? 'empty-input' : undefined}>
                    {c.tool}
                    {c.empty_input ? ' {}' : ''}
                  </code>
                ))}
              </span>
              <span className="strip-stop">
                {r.stop_reason ?? ''}
                {r.output_tokens !== null ? ` · ${r.output_tokens} tok` : ''}
                {r.at_max_tokens ? ' · at max' : ''}
              </span>
              <span className="strip-gap">{gap(r.seconds_since_previous)}</span>
            </li>
          );
        })}
      </ol>
    </>
  );
}
