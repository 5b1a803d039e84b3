import type { CompareResponse, FilterQuery } from '../../../../shared/api-schemas';
import { FINDING_CODES } from '../../../../shared/finding-codes';
import { opportunityWords } from '../../../../shared/format/opportunity-words';
import { formatP } from '../../../../shared/format/p-value';
import { whiskerPoint } from '../../charts/chart-data';
import { codeColor } from '../../charts/colors';
import { RateWhiskerChart } from '../../charts/RateWhiskerChart';
import { Loaded, Section } from '../../components/ui';
import { ViewAsData } from '../../components/ViewAsData';
import { codeLabel, formatCount, formatDay, formatRateWithInterval } from '../../lib/format';
import { toQueryString } from '../../lib/url-filters';

const fmtRatio = (r: { ratio: number; low: number; high: number; corrected: boolean } | null) =>
  r === null ? '–' : `${r.ratio.toFixed(2)}× (95% CI ${r.low.toFixed(2)}–${r.high.toFixed(2)})${r.corrected ? '*' : ''}`;

/** Each side's coverage, the table of every code (counts, rates, ratio, p-value), and a chart per code with findings. */
export function CompareResult({ compare, filters }: { compare: { data: CompareResponse | undefined; error: unknown }; filters: FilterQuery }) {
  return (
    <Loaded query={compare} height={240}>
      {(data) => {
        const withFindings = data.rows.filter((c) => c.a.count + c.b.count > 0);
        const coverage = (s: typeof data.a) =>
          `${s.kind === 'versions' ? `${s.versions.length} version${s.versions.length === 1 ? '' : 's'}` : `${s.from} to ${s.to}`}, ${formatCount(s.tool_use_turns)} tool-use turns, ${formatCount(s.assistant_messages)} messages${s.first_day ? `, ${formatDay(s.first_day)} – ${formatDay(s.last_day ?? null)}` : ''}`;
        return (
          <>
            <Section title={`A: ${data.a.spec} against B: ${data.b.spec}`}>
              <ul className="coverage small" data-testid="compare-coverage">
                <li>A: {coverage(data.a)}</li>
                <li>B: {coverage(data.b)}</li>
              </ul>
              <div className="table-scroll">
                <table className="table" data-testid="compare-table">
                  <thead>
                    <tr>
                      <th>code</th>
                      <th className="num">A</th>
                      <th className="num">B</th>
                      <th className="num">B / A</th>
                      <th className="num">p (Fisher, two-sided)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.rows.map((c) => (
                      <tr key={c.code} data-code={c.code}>
                        <td>{codeLabel(c.code)}</td>
                        <td className="num">
                          {c.a.count} · {formatRateWithInterval(c.a.per_1000_opportunities)}
                        </td>
                        <td className="num">
                          {c.b.count} · {formatRateWithInterval(c.b.per_1000_opportunities)}
                        </td>
                        {c.a.count + c.b.count === 0 ? (
                          <td className="num muted" colSpan={2} data-testid="no-findings-either">
                            no findings on either side
                          </td>
                        ) : (
                          <>
                            <td className="num">{fmtRatio(c.rate_ratio)}</td>
                            <td className="num">{formatP(c.p_value)}</td>
                          </>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <p className="muted small">{data.method} * a count of 0 on one side: corrected estimate.</p>
              <ViewAsData
                api={`/api/compare${toQueryString({ a: data.a.spec, b: data.b.spec, model: filters.model, folder: filters.folder, sidechain: filters.sidechain, code: filters.code })}`}
                csv={{
                  name: 'compare.csv',
                  rows: () =>
                    data.rows.map((c) => ({
                      code: c.code,
                      a_count: c.a.count,
                      a_tool_use_turns: c.a.tool_use_turns,
                      b_count: c.b.count,
                      b_tool_use_turns: c.b.tool_use_turns,
                      ratio: c.rate_ratio?.ratio ?? null,
                      p_value: c.p_value,
                    })),
                }}
              />
            </Section>
            {withFindings.length === 0 && <p className="muted">No findings on either side for any code: nothing to chart.</p>}
            <div className="compare-charts">
              {withFindings.map((c) => (
                <Section key={c.code} title={codeLabel(c.code)}>
                  <RateWhiskerChart
                    testId={`compare-chart-${c.code}`}
                    color={codeColor(c.code, FINDING_CODES)}
                    height={180}
                    code={c.code}
                    per={opportunityWords(c.a.opportunity)}
                    points={(['a', 'b'] as const).map((side) =>
                      whiskerPoint(side.toUpperCase(), {
                        count: c[side].count,
                        opportunities: c[side].opportunities,
                        interval: c[side].per_1000_opportunities,
                        not_measurable: c[side].not_measurable,
                      }),
                    )}
                  />
                </Section>
              ))}
            </div>
          </>
        );
      }}
    </Loaded>
  );
}
