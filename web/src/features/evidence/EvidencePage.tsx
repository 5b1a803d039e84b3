import { useRef, useState } from 'react';
import type { RedactionQuery } from '../../../../shared/api-schemas';
import { FINDING_CODES } from '../../../../shared/finding-codes';
import { useEvidenceText, useTimeline } from '../../api/queries';
import { chartSvg, download, downloadPng, downloadSvg, type ExportTheme, legendOf } from '../../charts/chart-export';
import { versionMarkers } from '../../charts/markers';
import { RateTimeChart } from '../../charts/RateTimeChart';
import { codesWithFindings } from '../../charts/scale';
import { FilterBar } from '../../components/FilterBar';
import { Loaded, Section, Skeleton, WarningBanner } from '../../components/ui';
import { filtersFromSearch, listParam } from '../../lib/url-filters';
import { useUrlParams } from '../../lib/use-url-params';

const OPTIONS = {
  files: [
    ['pseudonymize', 'pseudonymize (default)'],
    ['keep-session', 'keep-session (no project folders)'],
    ['keep', 'keep (prints project folders)'],
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
  // One claim (default: the strongest card's code, or the code filter's) or, like `export --all-codes`, every code alike.
  const scope = search.get('scope') === 'all' ? 'all' : undefined;
  const text = useEvidenceText(filters, redaction, format, scope);
  // The JSON form carries the suggested title (and the same content); the issue body is the Markdown.
  const json = useEvidenceText(filters, redaction, 'json', scope);
  const markdown = useEvidenceText(filters, redaction, 'md', scope);
  const parsed = (() => {
    try {
      return json.data ? (JSON.parse(json.data) as { title?: string; warnings?: string[]; claim?: { versions: string[] } }) : null;
    } catch {
      return null;
    }
  })();
  const [copiedIssue, setCopiedIssue] = useState<'' | 'title' | 'body'>('');
  const copyIssue = (what: 'title' | 'body', value: string) =>
    void navigator.clipboard?.writeText(value).then(() => {
      setCopiedIssue(what);
      setTimeout(() => setCopiedIssue(''), 1500);
    });
  const theme: ExportTheme = search.get('chart_theme') === 'dark' ? 'dark' : 'light';
  const chartTitle = `Lost tool calls per 1,000 opportunities, by day${parsed?.title ? ` — ${parsed.title}` : ''}`;
  const timeline = useTimeline(filters, 'day');
  const chartRef = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState(false);
  const codes = listParam(filters.code).length ? FINDING_CODES.filter((c) => listParam(filters.code).includes(c)) : [...FINDING_CODES];
  const set = (key: string, value: string) => setParams({ [key]: value });
  const svg = () => chartSvg(chartRef.current);
  const chartOptions = () => ({ title: chartTitle, legend: legendOf(chartRef.current), theme });

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
          report{' '}
          <select value={scope ?? 'claim'} data-testid="report-scope" onChange={(e) => setParams({ scope: e.target.value === 'all' ? 'all' : undefined })}>
            <option value="claim">one claim (the code filter's, else the strongest)</option>
            <option value="all">every code (whole corpus)</option>
          </select>
        </label>
        <label>
          format{' '}
          <select value={format} onChange={(e) => set('format', e.target.value)}>
            <option value="md">Markdown</option>
            <option value="json">JSON</option>
          </select>
        </label>
      </div>
      {redaction.files === 'keep' && (
        <WarningBanner>
          <span data-testid="home-path-warning">
            Claude Code names its project folders after your working directories, with / turned to - (for example <code>-Users-&lt;name&gt;-work-…</code>
            ): “keep” prints them, and so your user name. Choose “keep-session” to keep the session files recognisable without them.
          </span>
        </WarningBanner>
      )}
      {parsed?.warnings?.map((w) => (
        <WarningBanner key={w}>{w}</WarningBanner>
      ))}
      <Section title="Copy as GitHub issue">
        <Loaded query={markdown} height={80}>
          {(body) => (
            <div className="issue-copy">
              <label style={{ display: 'block' }}>
                Suggested title{' '}
                <input
                  readOnly
                  value={parsed?.title ?? ''}
                  data-testid="issue-title"
                  style={{ display: 'block', width: '100%', maxWidth: '48em' }}
                  onFocus={(e) => e.currentTarget.select()}
                />
              </label>{' '}
              <button type="button" disabled={!parsed?.title} onClick={() => copyIssue('title', parsed?.title ?? '')}>
                {copiedIssue === 'title' ? 'Copied' : 'Copy title'}
              </button>{' '}
              <button type="button" onClick={() => copyIssue('body', body)} data-testid="copy-issue-body">
                {copiedIssue === 'body' ? 'Copied' : 'Copy issue body'}
              </button>
              <p className="muted small" data-testid="issue-size">
                {body.length.toLocaleString('en-US')} characters of Markdown (GitHub takes up to 65,536)
                {body.includes('Left out to fit a GitHub issue:') ? '; some detail was folded away to fit, as the report says' : ''}.
              </p>
            </div>
          )}
        </Loaded>
      </Section>
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
    </div>
  );
}
