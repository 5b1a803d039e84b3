import type { IndexRunState } from '../../../shared/api-schemas';
import { formatBytes, formatDuration } from '../lib/format';

/** The live progress bar of the running (or last) index run. */
export function IndexRunProgress({ state }: { state: IndexRunState }) {
  if (state.state === 'idle') return null;
  const fraction =
    state.state === 'done'
      ? 1
      : state.bytes_total > 0
        ? state.bytes_done / state.bytes_total
        : state.files_total > 0
          ? state.files_done / state.files_total
          : 0;
  const percent = Math.round(fraction * 100);
  return (
    <div className="progress" data-testid="index-run-progress" data-state={state.state}>
      <div className="progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Index run progress">
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <div className="progress-text">
        {state.state === 'running' ? `Indexing (${state.phase ?? 'starting'})` : state.state === 'done' ? 'Last index run finished' : 'Last index run failed'}:{' '}
        <span data-testid="index-run-files">
          {state.files_done}/{state.files_total} files
        </span>
        , {formatBytes(state.bytes_done)} of {formatBytes(state.bytes_total)}, {formatBytes(state.bytes_per_second)}/s
        {state.state === 'running' ? `, ETA ${formatDuration(state.eta_seconds)}` : ''}
        {state.files_failed > 0 ? `, ${state.files_failed} failed` : ''}
      </div>
    </div>
  );
}
