import { EvidenceReport, ExportQuery, type Redaction } from '../../shared/api-schemas';
import { buildEvidenceReport, DEFAULT_REDACTION } from '../query/build-evidence-report';
import { renderEvidenceMarkdown } from '../query/evidence-markdown';
import { parseFilters } from './parse-filters';
import type { App, RouteContext } from './types';

export function redactionOf(q: Partial<Redaction>): Redaction {
  return {
    files: q.files ?? DEFAULT_REDACTION.files,
    lines: q.lines ?? DEFAULT_REDACTION.lines,
    digests: q.digests ?? DEFAULT_REDACTION.digests,
    models: q.models ?? DEFAULT_REDACTION.models,
  };
}

export function exportRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/export', { schema: { querystring: ExportQuery, response: { 200: EvidenceReport } } }, async (request, reply) => {
    const { format, files, lines, digests, models, ...filters } = request.query;
    const report = buildEvidenceReport(ctx.db, parseFilters(filters), redactionOf({ files, lines, digests, models }), ctx.toolVersion);
    if (format === 'md') return reply.type('text/markdown; charset=utf-8').send(renderEvidenceMarkdown(report) as never);
    return report;
  });
}
