import { Link } from 'react-router';
import type { AgentsResponse, FilterQuery, SummaryResponse } from '../../../../shared/api-schemas';
import { WarningBanner } from '../../components/ui';
import { agentLabel } from '../../lib/agents';
import { formatCount } from '../../lib/format';

/** Files that failed or are still being written, and folders never indexed: none is counted, so each is said. */
export function OverviewWarnings({ summary: s, neverIndexed }: { summary: SummaryResponse; neverIndexed: number }) {
  return (
    <>
      {s.files_failed > 0 && (
        <WarningBanner>
          <strong>
            {s.files_failed} file{s.files_failed === 1 ? '' : 's'} failed to read
          </strong>{' '}
          and {s.files_failed === 1 ? 'is' : 'are'} not counted anywhere. <Link to="/files">See which, with the error and line</Link>.
        </WarningBanner>
      )}
      {s.files_in_progress > 0 && (
        <WarningBanner>
          <strong>
            {s.files_in_progress} file{s.files_in_progress === 1 ? ' is' : 's are'} still being written
          </strong>{' '}
          (last line incomplete) and not counted yet. <Link to="/files">Details</Link>.
        </WarningBanner>
      )}
      {neverIndexed > 0 && (
        <WarningBanner>
          <strong>
            {neverIndexed} folder{neverIndexed === 1 ? ' was' : 's were'} added but never indexed.
          </strong>{' '}
          <Link to="/folders">Start an index run</Link>.
        </WarningBanner>
      )}
    </>
  );
}

/** Which agents are shown, and the others the folders hold, one link each. */
export function OtherAgents({ agentRows, filters, search }: { agentRows: AgentsResponse['rows']; filters: FilterQuery; search: URLSearchParams }) {
  const shown = filters.agent?.split(',') ?? [];
  const others = agentRows.filter((r) => !shown.includes(r.agent));
  return (
    <p className="muted" data-testid="other-agents">
      {shown.length > 0 ? `Showing ${shown.map(agentLabel).join(', ')}. ` : 'Showing every agent. '}
      {others.length > 0 && 'The folders also hold: '}
      {others.map((r, i) => (
        <span key={r.agent}>
          {i > 0 && ', '}
          <Link to={`/?${new URLSearchParams({ ...Object.fromEntries(search), agent: r.agent }).toString()}`}>{agentLabel(r.agent)}</Link> (
          {formatCount(r.files)} file{r.files === 1 ? '' : 's'})
        </span>
      ))}
      {others.length > 0 && '.'}
    </p>
  );
}
