import type { RateRow } from '../../../shared/api-schemas';
import { codeLabel, formatCount, formatRateWithInterval } from '../lib/format';

/** Counts, denominators and rates per row (day, week, version or model), one column per code. */
export function RateTable({ rows, keyName, testId }: { rows: RateRow[]; keyName: string; testId: string }) {
  return (
    <div className="table-scroll">
      <table className="table" data-testid={testId}>
        <thead>
          <tr>
            <th>{keyName}</th>
            <th className="num">messages</th>
            <th className="num">tool-use turns</th>
            {(rows[0]?.codes ?? []).map((c) => (
              <th key={c.code} className="num">
                {codeLabel(c.code)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key ?? 'unknown'}>
              <td>{r.key ?? 'unknown'}</td>
              <td className="num">{formatCount(r.assistant_messages)}</td>
              <td className="num">{formatCount(r.tool_use_turns)}</td>
              {r.codes.map((c) => (
                <td key={c.code} className="num">
                  {c.count} · {formatRateWithInterval(c.per_1000_tool_use_turns)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
