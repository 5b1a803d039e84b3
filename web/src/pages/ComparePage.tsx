import { FINDING_CODES } from '../../../shared/finding-codes';
import { useCompare, useRegressions, useVersions } from '../api/queries';
import { FilterBar } from '../components/FilterBar';
import { RateWhiskerChart } from '../components/RateWhiskerChart';
import { Loaded, NothingIndexed, Section } from '../components/ui';
import { codeColor } from '../lib/colors';
import { codeLabel, formatCount, formatRateWithInterval } from '../lib/format';
import { filtersFromSearch } from '../lib/url-filters';
import { useUrlParams } from '../lib/use-url-params';

const fmtRatio = (r: { ratio: number; low: number; high: number; corrected: boolean } | null) =>
  r === null ? '–' : `${r.ratio.toFixed(2)}× (95% CI ${r.low.toFixed(2)}–${r.high.toFixed(2)})${r.corrected ? '*' : ''}`;
const fmtP = (p: number | null) => (p === null ? '–' : p < 1e-4 ? p.toExponential(1) : p.toPrecision(2));

export function ComparePage() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const versions = useVersions({});
  const regressions = useRegressions({});
  const known = (versions.data?.rows ?? []).flatMap((r) => (r.key ? [r.key] : []));
  // Until chosen, compare around the first regression found (or the two halves of the versions).
  const verdict = regressions.data?.verdicts.find((v) => v.model === null && v.dimension === 'version' && v.status === 'regression');
  const defaults =
    verdict && known.length
      ? [`${known[0]}..${verdict.last_good}`, `${verdict.first_bad}..${known[known.length - 1]}`]
      : known.length > 1
        ? [`${known[0]}..${known[Math.floor(known.length / 2) - 1]}`, `${known[Math.floor(known.length / 2)]}..${known[known.length - 1]}`]
        : ['', ''];
  const a = search.get('a') ?? defaults[0]!;
  const b = search.get('b') ?? defaults[1]!;
  const compare = useCompare(a, b, filters);
  const set = (key: string, value: string) => setParams({ [key]: value });
  if (versions.data && known.length === 0) return <NothingIndexed />;

  return (
    <div className="page">
      <h1>Compare</h1>
      <p className="muted">
        Each side is one or more versions (<code>2.1.39</code>, <code>2.1.36,2.1.37</code>, <code>2.1.36..2.1.39</code>) or a day range (
        <code>2026-05-01..2026-05-28</code>).
      </p>
      <form className="add-form" onSubmit={(e) => e.preventDefault()}>
        <label>
          Side A
          <input name="a" list="known-versions" value={a} onChange={(e) => set('a', e.target.value)} spellCheck={false} />
        </label>
        <label>
          Side B
          <input name="b" list="known-versions" value={b} onChange={(e) => set('b', e.target.value)} spellCheck={false} />
        </label>
        <datalist id="known-versions">
          {known.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      </form>
      <FilterBar showDates={false} />
      <Loaded query={compare} height={240}>
        {(data) => (
          <>
            <Section
              title={`A: ${data.a.spec} (${formatCount(data.a.tool_use_turns)} tool-use turns) against B: ${data.b.spec} (${formatCount(data.b.tool_use_turns)})`}
            >
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
                    {data.codes.map((c) => (
                      <tr key={c.code}>
                        <td>{codeLabel(c.code)}</td>
                        <td className="num">
                          {c.a.count} · {formatRateWithInterval(c.a.per_1000_tool_use_turns)}
                        </td>
                        <td className="num">
                          {c.b.count} · {formatRateWithInterval(c.b.per_1000_tool_use_turns)}
                        </td>
                        <td className="num">{fmtRatio(c.rate_ratio)}</td>
                        <td className="num">{fmtP(c.p_value)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <p className="muted small">{data.method} * a count of 0 on one side: corrected estimate.</p>
            </Section>
            <div className="compare-charts">
              {data.codes.map((c) => (
                <Section key={c.code} title={codeLabel(c.code)}>
                  <RateWhiskerChart
                    testId={`compare-chart-${c.code}`}
                    color={codeColor(c.code, FINDING_CODES)}
                    height={200}
                    points={(['a', 'b'] as const).flatMap((side) => {
                      const f = c[side];
                      const i = f.per_1000_tool_use_turns;
                      return i
                        ? [
                            {
                              key: side.toUpperCase(),
                              rate: i.rate,
                              low: i.low,
                              high: i.high,
                              error: [i.rate - i.low, i.high - i.rate] as [number, number],
                              count: f.count,
                              tool_use_turns: f.tool_use_turns,
                            },
                          ]
                        : [];
                    })}
                  />
                </Section>
              ))}
            </div>
          </>
        )}
      </Loaded>
    </div>
  );
}
