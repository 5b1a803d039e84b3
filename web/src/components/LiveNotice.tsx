import { Link } from 'react-router';
import { dismissLiveFindings, useLiveFindings } from '../api/live-events';
import { codeLabel } from '../lib/format';

/** A quiet, dismissible line when the folder watcher indexed a new finding; the tables and charts update by themselves. */
export function LiveNotice() {
  const found = useLiveFindings();
  if (found.length === 0) return null;
  const last = found[found.length - 1]!;
  const text = found.length === 1 ? `New finding: ${codeLabel(last.code)}` : `${found.length} new findings, the last: ${codeLabel(last.code)}`;
  return (
    <div className="live-notice" role="status" aria-live="polite" data-testid="live-notice">
      <span>{text}</span> <Link to={`/findings?code=${encodeURIComponent(last.code)}&finding=${encodeURIComponent(last.id)}`}>Show</Link>{' '}
      <button type="button" onClick={dismissLiveFindings} aria-label="Dismiss the new-finding notice">
        Dismiss
      </button>
    </div>
  );
}
