import { FilterBar } from '../../components/FilterBar';
import { NothingIndexed } from '../../components/ui';
import { VersionVerdicts } from '../../components/VerdictCards';
import { codeLabel } from '../../lib/format';
import { BreakdownSections } from './BreakdownSections';
import { CrossSections } from './CrossSections';
import { useVersionsPage } from './use-versions-page';
import { VersionRatesSection } from './VersionRatesSection';

export function VersionsPage() {
  const state = useVersionsPage();
  const { page, versions, regressions, effortNames, measurable, found, code } = state;
  const chooser = (
    <label>
      Chart{' '}
      <select value={code} onChange={(e) => page.setParams({ chart: e.target.value })}>
        {measurable.map((c) => (
          <option key={c} value={c}>
            {codeLabel(c)}
            {found.includes(c) ? '' : ' (no findings)'}
          </option>
        ))}
      </select>
    </label>
  );
  if (versions.data && versions.data.rows.length === 0 && !page.search.size) return <NothingIndexed />;

  return (
    <div className="page">
      <h1>Versions and models</h1>
      <VersionVerdicts regressions={regressions} title="Where did it start? (by version)" testId="verdicts-version" />
      <FilterBar showCodes={false} extra={chooser} efforts={effortNames} />
      <VersionRatesSection state={state} />
      <BreakdownSections state={state} />
      <CrossSections state={state} />
    </div>
  );
}
