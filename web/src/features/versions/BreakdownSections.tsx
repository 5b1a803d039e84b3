import { useEfforts, useModels } from '../../api/queries';
import { whiskerSeries } from '../../charts/chart-data';
import { codeColor } from '../../charts/colors';
import { RateWhiskerChart } from '../../charts/RateWhiskerChart';
import { TurnEndsChart } from '../../charts/TurnEndsChart';
import { RateTable } from '../../components/RateTable';
import { Loaded, Section } from '../../components/ui';
import { ViewAsData } from '../../components/ViewAsData';
import { rateRowsCsv } from '../../lib/csv';
import { codeLabel } from '../../lib/format';
import { toQueryString } from '../../lib/url-filters';
import type { VersionsPageState } from './use-versions-page';

/** The charted code by model and by effort, then how turns end. */
export function BreakdownSections({ state }: { state: VersionsPageState }) {
  const { page, code, per, found, allEfforts, effortRecorded } = state;
  const { filters } = page;
  const models = useModels(filters);
  const efforts = useEfforts(filters);
  const qs = toQueryString(filters);
  return (
    <>
      <Section title={`${codeLabel(code)} by model`}>
        <Loaded query={models} height={240}>
          {(data) => (
            <>
              <RateWhiskerChart points={whiskerSeries(data.rows, code)} color={codeColor(code)} height={200} testId="models-chart" code={code} per={per} />
              <RateTable rows={data.rows} keyName="model" testId="models-table" codes={found} />
              <ViewAsData api={`/api/models${qs}`} csv={{ name: 'models.csv', rows: () => rateRowsCsv(data.rows, 'model') }} />
            </>
          )}
        </Loaded>
      </Section>
      <Section title={`${codeLabel(code)} by effort`}>
        {allEfforts.data && !effortRecorded ? (
          <p className="muted small" data-testid="efforts-not-recorded">
            No transcript here records an effort (Claude Code writes it from 2.1.212): every reply counts as effort unknown, so there is no breakdown to draw.
          </p>
        ) : (
          <Loaded query={efforts} height={240}>
            {(data) => (
              <>
                <RateWhiskerChart points={whiskerSeries(data.rows, code)} color={codeColor(code)} height={200} testId="efforts-chart" code={code} per={per} />
                <RateTable rows={data.rows} keyName="effort" testId="efforts-table" codes={found} />
                <p className="muted small">
                  Effort is what each reply's row records (Claude Code 2.1.212+), else the nearest effort an earlier row of the file records; unknown where
                  nothing does.
                </p>
                <ViewAsData api={`/api/efforts${qs}`} csv={{ name: 'efforts.csv', rows: () => rateRowsCsv(data.rows, 'effort') }} />
              </>
            )}
          </Loaded>
        )}
      </Section>
      <TurnEndsChart folder={filters.folder} effort={filters.effort} sidechain={filters.sidechain} agent={filters.agent} />
    </>
  );
}
