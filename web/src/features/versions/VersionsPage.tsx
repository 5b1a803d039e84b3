import { FilterBar } from '../../components/FilterBar';
import { Loaded, NothingIndexed, Section } from '../../components/ui';
import { VerdictCards } from '../../components/VerdictCards';
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
      <Section title="Where did it start? (by version)">
        <Loaded query={regressions} height={90}>
          {(r) => (
            <VerdictCards
              cards={r.rows.filter((c) => c.dimension === 'version')}
              noClaim={r.no_claim.version}
              sessionCap={r.session_cap}
              testId="verdicts-version"
            />
          )}
        </Loaded>
      </Section>
      <FilterBar showCodes={false} extra={chooser} efforts={effortNames} />
      <VersionRatesSection state={state} />
      <BreakdownSections state={state} />
      <CrossSections state={state} />
    </div>
  );
}
