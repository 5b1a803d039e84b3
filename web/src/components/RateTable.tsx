import { useState } from 'react';
import { opportunityWords } from '../../../shared/format/opportunity-words';
import { codeDefinition } from '../charts/CodeLegend';
import { formatCell } from '../charts/scale';
import { codeLabel, formatCount } from '../lib/format';
import type { KeyedRow as RateRow } from '../lib/keyed-rows';

/** Rows with no findings in the shown codes and fewer than `minTurns` tool-use turns fold into one line. */
export function splitThinRows(rows: readonly RateRow[], codes: readonly string[], minTurns: number): { shown: RateRow[]; folded: RateRow[] } {
  const shown: RateRow[] = [];
  const folded: RateRow[] = [];
  for (const r of rows) {
    const found = r.codes.some((c) => codes.includes(c.code) && c.count > 0);
    (found || r.tool_use_turns >= minTurns ? shown : folded).push(r);
  }
  return { shown, folded };
}

/** Counts, opportunities and rates per row (day, week, version or model), one column per shown code. */
export function RateTable({
  rows,
  keyName,
  testId,
  codes,
  minTurns = 0,
  messages = true,
}: {
  rows: RateRow[];
  keyName: string;
  testId: string;
  codes?: readonly string[];
  minTurns?: number;
  /** Whether to show the messages column (a short ranking leaves it out). */
  messages?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const shownCodes = codes ?? (rows[0]?.codes ?? []).map((c) => c.code);
  const { shown, folded } = open || minTurns === 0 ? { shown: rows, folded: [] } : splitThinRows(rows, shownCodes, minTurns);
  const foldedTurns = folded.reduce((n, r) => n + r.tool_use_turns, 0);
  return (
    <div className="table-scroll">
      <table className="table" data-testid={testId}>
        <thead>
          <tr>
            <th>{keyName}</th>
            {messages && <th className="num">messages</th>}
            <th className="num">tool-use turns</th>
            {shownCodes.map((code) => {
              const c = rows[0]?.codes.find((x) => x.code === code);
              return (
                <th key={code} className="num" title={codeDefinition(code)}>
                  {codeLabel(code)}
                  {c && <div className="muted small">per 1,000 {opportunityWords(c.opportunity)}</div>}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.key ?? 'unknown'}>
              <td>{r.key ?? 'unknown'}</td>
              {messages && <td className="num">{formatCount(r.assistant_messages)}</td>}
              <td className="num">{formatCount(r.tool_use_turns)}</td>
              {shownCodes.map((code) => {
                const c = r.codes.find((x) => x.code === code);
                return (
                  <td key={code} className="num">
                    {c ? formatCell(c) : '–'}
                  </td>
                );
              })}
            </tr>
          ))}
          {folded.length > 0 && (
            <tr className="folded-row" data-testid="folded-rows">
              <td colSpan={(messages ? 3 : 2) + shownCodes.length}>
                {folded.length} {keyName === 'version' ? 'versions' : `${keyName}s`} with no findings and fewer than {minTurns} tool-use turns each (
                {folded[0]!.key ?? 'unknown'}
                {folded.length > 1 ? `–${folded[folded.length - 1]!.key ?? 'unknown'}` : ''}, {formatCount(foldedTurns)} tool-use turns in all).{' '}
                <button type="button" className="linkish" onClick={() => setOpen(true)}>
                  Show them
                </button>
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
