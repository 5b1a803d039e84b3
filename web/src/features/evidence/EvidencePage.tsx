import { FilterBar } from '../../components/FilterBar';
import { WarningBanner } from '../../components/ui';
import { IssueCopySection } from './IssueCopySection';
import { RedactionControls } from './RedactionControls';
import { ReportChartSection } from './ReportChartSection';
import { ReportSection } from './ReportSection';
import { useEvidence } from './use-evidence';

export function EvidencePage() {
  const state = useEvidence();
  const { redaction, parsed, markdown } = state;
  return (
    <div className="page">
      <h1>Evidence report</h1>
      <p className="muted">
        What you see below is the exact text that would be shared: copy it into a bug report, or download it. It holds counts, rates, regression verdicts and
        findings, never what a conversation said; choose how much of the rest to show.
      </p>
      <FilterBar />
      <RedactionControls state={state} />
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
      <IssueCopySection markdown={markdown} title={parsed?.title} />
      <ReportSection text={state.text} format={state.format} />
      <ReportChartSection state={state} />
    </div>
  );
}
