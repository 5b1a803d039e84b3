import { useRef, useState } from 'react';
import type { RedactionQuery } from '../../../shared/api-schemas';
import { FINDING_CODES } from '../../../shared/finding-codes';
import { useEvidenceText, useTimeline } from '../api/queries';
import { FilterBar } from '../components/FilterBar';
import { TimelineChart } from '../components/TimelineChart';
import { Loaded, Section, Skeleton } from '../components/ui';
import { timelineSeries } from '../lib/chart-data';
import { download, downloadPng, downloadSvg } from '../lib/chart-export';
import { filtersFromSearch, listParam } from '../lib/url-filters';
import { useUrlParams } from '../lib/use-url-params';

const OPTIONS = {
  files: [
    ['pseudonymize', 'pseudonymize (default)'],
    ['keep', 'keep relative names'],
    ['omit', 'omit'],
  ],
  lines: [
    ['keep', 'keep'],
    ['omit', 'omit'],
  ],
  digests: [
    ['keep', 'keep'],
    ['omit', 'omit'],
  ],
  models: [
    ['keep', 'keep'],
    ['generalize', 'family only'],
  ],
} as const;

export function EvidencePage() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const redaction: RedactionQuery = {};
  for (const key of Object.keys(OPTIONS) as Array<keyof typeof OPTIONS>) {
    const v = search.get(key);
    if (v && OPTIONS[key].some(([value]) => value === v)) (redaction as Record<string, string>)[key] = v;
  }
  const format = search.get('format') === 'json' ? 'json' : 'md';
  const text = useEvidenceText(filters, redaction, format);
  const timeline = useTimeline(filters, 'day');
  const chartRef = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState(false);
  const codes = listParam(filters.code).length ? FINDING_CODES.filter((c) => listParam(filters.code).includes(c)) : [...FINDING_CODES];
  const set = (key: string, value: string) => setParams({ [key]: value });
  const svg = () => chartRef.current?.querySelector<SVGSVGElement>('svg.recharts-surface') ?? null;

  return (
    <div className="page">
      <h1>Evidence report</h1>
      <p className="muted">
        What you see below is the exact text that would be shared: copy it into a bug report, or download it. It holds counts, rates, regression verdicts and
        findings, never what a conversation said; choose how much of the rest to show.
      </p>
      <FilterBar />
      <div className="filters" role="group" aria-label="Redaction">
        {(Object.keys(OPTIONS) as Array<keyof typeof OPTIONS>).map((key) => (
          <label key={key}>
            {key}{' '}
            <select value={redaction[key] ?? OPTIONS[key][0][0]} onChange={(e) => set(key, e.target.value)}>
              {OPTIONS[key].map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label>
          format{' '}
          <select value={format} onChange={(e) => set('format', e.target.value)}>
            <option value="md">Markdown</option>
            <option value="json">JSON</option>
          </select>
        </label>
      </div>
      <Section
        title="Report"
        actions={
          <span className="actions-row">
            <button
              type="button"
              disabled={!text.data}
              onClick={() =>
                void navigator.clipboard?.writeText(text.data ?? '').then(() => {
                  setCopied(true);
                  setTimeout(() => setCopied(false), 1500);
                })
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button
              type="button"
              disabled={!text.data}
              onClick={() =>
                download(`tool-call-forensics-report.${format}`, new Blob([text.data ?? ''], { type: format === 'md' ? 'text/markdown' : 'application/json' }))
              }
            >
              Download
            </button>
          </span>
        }
      >
        <Loaded query={text} height={300}>
          {(report) => (
            <pre className="report" data-testid="report-text">
              {report}
            </pre>
          )}
        </Loaded>
      </Section>
      <Section
        title="Chart for the report"
        actions={
          <span className="actions-row">
            <button
              type="button"
              onClick={() => {
                const s = svg();
                if (s) downloadSvg(s, 'tool-call-forensics-timeline.svg');
              }}
            >
              Download SVG
            </button>
            <button
              type="button"
              onClick={() => {
                const s = svg();
                if (s) void downloadPng(s, 'tool-call-forensics-timeline.png');
              }}
            >
              Download PNG
            </button>
          </span>
        }
      >
        <div ref={chartRef}>
          {timeline.data ? (
            <TimelineChart
              points={timelineSeries(timeline.data.rows, codes)}
              codes={codes}
              allCodes={FINDING_CODES}
              markers={timeline.data.version_markers}
              height={320}
            />
          ) : (
            <Skeleton height={320} />
          )}
        </div>
      </Section>
    </div>
  );
}
