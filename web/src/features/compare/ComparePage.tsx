import { FilterBar } from '../../components/FilterBar';
import { NothingIndexed } from '../../components/ui';
import { CompareResult } from './CompareResult';
import { SideInput } from './SideInput';
import { useCompareSides } from './use-compare-sides';

export function ComparePage() {
  const { filters, versions, known, span, days, a, b, errA, errB, conflict, valid, compare, set } = useCompareSides();
  if (versions.data && known.length === 0) return <NothingIndexed />;

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
      {valid && <CompareResult compare={compare} filters={filters} />}
    </div>
  );
}
