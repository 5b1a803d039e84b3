import { EvidenceReport, ExportQuery } from '../../shared/api-schemas';
import type { App, RouteContext } from '../http/types';
import { buildEvidenceReport, redactionOf } from '../query/build-evidence-report';
import { renderEvidenceMarkdown } from '../query/evidence-markdown';
import { parseFilters } from './parse-filters';

/**
 * GET /api/export: the evidence report (JSON, or Markdown with format=md). Cached per index state like
 * the other GET routes (building it reads every table: 0.5–3.6 s under load on a year's index): a repeat
 * of the same export of the same index is the same report, its `generated_at` the time that index
 * state's report was first made.
 */
export function exportRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/export', { schema: { querystring: ExportQuery, response: { 200: EvidenceReport } }, config: { cache: true } }, async (request, reply) => {
    const { format, files, lines, digests, models, scope, ...filters } = request.query;
    const report = buildEvidenceReport(ctx.db, parseFilters(filters), redactionOf({ files, lines, digests, models }), ctx.toolVersion, new Date(), {
      demo: ctx.demo,
      scope: scope ?? 'claim',
    });
    if (format === 'md') return reply.type('text/markdown; charset=utf-8').send(renderEvidenceMarkdown(report) as never);
    return report;
  });
}
