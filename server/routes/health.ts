import { HealthResponse } from '../../shared/api-schemas';
import { DETECTOR_DEFINITIONS_VERSION } from '../../shared/finding-codes';
import type { App, RouteContext } from './types';

export function healthRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/health', { schema: { response: { 200: HealthResponse } } }, async () => ({
    status: 'ok' as const,
    tool_version: ctx.toolVersion,
    detector_definitions_version: DETECTOR_DEFINITIONS_VERSION,
    demo: ctx.demo,
    read_only: ctx.readOnly !== null,
    read_only_reason: ctx.readOnly,
  }));
}
