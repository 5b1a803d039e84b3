import type { HealthResponse } from '../../../shared/api-schemas';
import { READ_ONLY_OFF, READ_ONLY_REASONS } from '../../../shared/read-only';

/** What a disabled control's title says on a read-only index. */
export const READ_ONLY_TITLE = `Read-only index: ${READ_ONLY_OFF}`;

/** Under the top bar on every page while the server has the index open read-only (GET /api/health says so, and why). */
export function ReadOnlyBanner({ health }: { health: HealthResponse | undefined }) {
  if (!health?.read_only) return null;
  return (
    <div className="banner banner-warning read-only-banner" role="status" data-testid="read-only-banner">
      <strong>Read-only index</strong> — {READ_ONLY_OFF}
      {health.read_only_reason && <span className="muted"> ({READ_ONLY_REASONS[health.read_only_reason]})</span>}.
    </div>
  );
}
