import { HealthResponse } from '../../shared/api-schemas';
import { DETECTOR_DEFINITIONS_VERSION } from '../../shared/finding-codes';
import type { App, RouteContext } from '../http/types';
import { getIndexId } from '../query/get-index-id';

export function healthRoutes(app: App, ctx: RouteContext): void {
  // Read once: an index's id never changes, and health must answer without reading the database
  // (a read-only snapshot being rewritten answers 503 on every other route, never here).
  const indexId = getIndexId(ctx.db);
  app.get('/api/health', { schema: { response: { 200: HealthResponse } } }, async () => ({
    status: 'ok' as const,
    tool_version: ctx.toolVersion,
    detector_definitions_version: DETECTOR_DEFINITIONS_VERSION,
    demo: ctx.demo,
    read_only: ctx.readOnly !== null,
    read_only_reason: ctx.readOnly,
    index_id: indexId,
  }));
}
