import { useState } from 'react';
import { FINDING_CODES } from '../../../../shared/finding-codes';
import { opportunityWords } from '../../../../shared/format/opportunity-words';
import { formatP } from '../../../../shared/format/p-value';
import { useCompare, useRegressions, useSummary, useVersions } from '../../api/queries';
import { whiskerPoint } from '../../charts/chart-data';
import { codeColor } from '../../charts/colors';
import { RateWhiskerChart } from '../../charts/RateWhiskerChart';
import { FilterBar } from '../../components/FilterBar';
import { Loaded, NothingIndexed, Section } from '../../components/ui';
import { ViewAsData } from '../../components/ViewAsData';
import { codeLabel, formatCount, formatDay, formatRateWithInterval } from '../../lib/format';
import { filtersFromSearch, toQueryString } from '../../lib/url-filters';
import { useUrlParams } from '../../lib/use-url-params';
import { parseSideText, sidesConflict } from './compare-sides';

const fmtRatio = (r: { ratio: number; low: number; high: number; corrected: boolean } | null) =>
  r === null ? '–' : `${r.ratio.toFixed(2)}× (95% CI ${r.low.toFixed(2)}–${r.high.toFixed(2)})${r.corrected ? '*' : ''}`;

function SideInput({ name, value, onChange, error }: { name: string; value: string; onChange: (v: string) => void; error: string | null }) {
  return (
    <label>
      {name}
      <input
        name={name}
        list="known-sides"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        aria-invalid={error !== null}
        aria-describedby={error ? `${name}-error` : undefined}
      />
      {error && (
        <span className="field-error" id={`${name}-error`} role="alert" data-testid={`${name.replace(' ', '-').toLowerCase()}-error`}>
          {error}
        </span>
      )}
    </label>
  );
}

export function ComparePage() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const versions = useVersions({});
  const summary = useSummary({});
  const regressions = useRegressions({});
  const known = (versions.data?.rows ?? []).flatMap((r) => (r.key ? [r.key] : []));
  const span = { first: summary.data?.first_day ?? null, last: summary.data?.last_day ?? null };
  // Until chosen, compare around the first change named (or the two halves of the versions).
  const card = regressions.data?.rows.find((c) => c.dimension === 'version' && c.strength !== 'insufficient');
  const defaults =
    card && known.length
      ? [`${known[0]}..${card.last_good}`, `${card.first_bad}..${known[known.length - 1]}`]
      : known.length > 1
        ? [`${known[0]}..${known[Math.floor(known.length / 2) - 1]}`, `${known[Math.floor(known.length / 2)]}..${known[known.length - 1]}`]
        : ['', ''];
  // What is typed stays as typed (an empty box stays empty); only valid sides reach the URL.
  const [typed, setTyped] = useState<{ a?: string; b?: string }>({});
  const a = typed.a ?? search.get('a') ?? defaults[0]!;
  const b = typed.b ?? search.get('b') ?? defaults[1]!;
  const ready = versions.data !== undefined && summary.data !== undefined;
  const pa = parseSideText(a, known, span);
  const pb = parseSideText(b, known, span);
  const errA = ready && 'error' in pa ? pa.error : null;
  const errB = ready && 'error' in pb ? pb.error : null;
  const conflict = ready && !('error' in pa) && !('error' in pb) ? sidesConflict(pa, pb) : null;
  const valid = ready && errA === null && errB === null && conflict === null;
  const compare = useCompare(valid ? a.trim() : '', valid ? b.trim() : '', filters);
  const set = (key: 'a' | 'b', value: string) => {
    setTyped((t) => ({ ...t, [key]: value }));
    const other = key === 'a' ? b : a;
    const mine = parseSideText(value, known, span);
    const theirs = parseSideText(other, known, span);
    if (!('error' in mine) && !('error' in theirs) && sidesConflict(mine, theirs) === null)
      setParams({ a: key === 'a' ? value.trim() : a.trim(), b: key === 'b' ? value.trim() : b.trim() });
  };
  if (versions.data && known.length === 0) return <NothingIndexed />;
  const days = span.first && span.last ? [`${span.first}..${span.last}`] : [];

  return (
    <div className="page">
      <h1>Compare</h1>
      <p className="muted">
        Each side is versions (<code>2.1.39</code>, <code>2.1.36,2.1.37</code>, or a range <code>2.1.36..2.1.39</code>, which takes the indexed versions within)
        or a day range (<code>{span.first ?? '2026-05-01'}..</code>
        <code>{span.last ?? '2026-05-28'}</code>). Type to search the versions indexed; the two sides may not overlap.
      </p>
      <form className="add-form compare-form" onSubmit={(e) => e.preventDefault()}>
        <SideInput name="Side A" value={a} onChange={(v) => set('a', v)} error={errA} />
        <SideInput name="Side B" value={b} onChange={(v) => set('b', v)} error={errB} />
        <datalist id="known-sides">
          {[...known, ...known.map((v) => `${v}..${known[known.length - 1]}`), ...days].map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      </form>
      {conflict && (
        <p className="banner banner-error" role="alert" data-testid="compare-conflict">
          {conflict}
        </p>
      )}
      <FilterBar showDates={false} />
      {valid && (
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
      )}
    </div>
  );
}
