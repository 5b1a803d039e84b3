import { useRef } from 'react';
import { FINDING_CODES } from '../../../../shared/finding-codes';
import { useTimeline } from '../../api/queries';
import { chartSvg, downloadPng, downloadSvg, type ExportTheme, legendOf } from '../../charts/chart-export';
import { versionMarkers } from '../../charts/markers';
import { RateTimeChart } from '../../charts/RateTimeChart';
import { codesWithFindings } from '../../charts/scale';
import { Section, Skeleton } from '../../components/ui';
import { listParam } from '../../lib/url-filters';
import type { EvidenceState } from './use-evidence';

/** The chart that goes with the report, downloadable as SVG or PNG in a light or dark theme: what is downloaded is this picture. */
export function ReportChartSection({ state }: { state: EvidenceState }) {
  const { search, setParams, filters, parsed } = state;
  const theme: ExportTheme = search.get('chart_theme') === 'dark' ? 'dark' : 'light';
  const chartTitle = `Lost tool calls per 1,000 opportunities, by day${parsed?.title ? ` — ${parsed.title}` : ''}`;
  const timeline = useTimeline(filters, 'day');
  const chartRef = useRef<HTMLDivElement>(null);
  const codes = listParam(filters.code).length ? FINDING_CODES.filter((c) => listParam(filters.code).includes(c)) : [...FINDING_CODES];
  const svg = () => chartSvg(chartRef.current);
  const chartOptions = () => ({ title: chartTitle, legend: legendOf(chartRef.current), theme });
  return (
    <Section
      title="Chart for the report"
      actions={
        <span className="actions-row">
          <label className="small">
            theme{' '}
            <select value={theme} onChange={(e) => setParams({ chart_theme: e.target.value === 'dark' ? 'dark' : undefined })}>
              <option value="light">light</option>
              <option value="dark">dark</option>
            </select>
          </label>
          <button
            type="button"
            onClick={() => {
              const s = svg();
              if (s) downloadSvg(s, `tool-call-forensics-timeline-${theme}.svg`, chartOptions());
            }}
          >
            Download SVG
          </button>
          <button
            type="button"
            onClick={() => {
              const s = svg();
              if (s) void downloadPng(s, `tool-call-forensics-timeline-${theme}.png`, chartOptions());
            }}
          >
            Download PNG
          </button>
        </span>
      }
    >
      <div ref={chartRef} data-testid="report-chart" data-codes={timeline.data ? codesWithFindings(timeline.data.rows, codes).join(',') : ''}>
        {timeline.data ? (
          // Only the codes with findings, the axis scaled to their rates, version labels thinned: what is downloaded is this picture.
          <RateTimeChart
            rows={timeline.data.rows}
            bucket="day"
            codes={codesWithFindings(timeline.data.rows, codes)}
            markers={versionMarkers(timeline.data.version_markers)}
            height={320}
            allBands
            keepLabels={parsed?.claim?.versions ?? []}
          />
        ) : (
          <Skeleton height={320} />
        )}
      </div>
    </Section>
  );
}
