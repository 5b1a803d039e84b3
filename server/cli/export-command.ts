import { resolve } from 'node:path';
import type { Redaction } from '../../shared/api-schemas';
import { buildEvidenceReport } from '../query/build-evidence-report';
import { renderEvidence } from '../query/evidence-markdown';
import type { RateFilters } from '../query/rate-filters';
import type { Db } from '../store/database';
import { demoDbPath } from '../store/default-db-path';

export interface ExportOutput {
  text: string;
  /** Lines for stderr: the size, and warnings (cut to fit, names derived from home paths). */
  notes: string[];
}

/**
 * The `export` command's work: the report as Markdown (always under the budget) or JSON, with
 * its size and what the person should know before pasting it.
 */
export function runExport(
  db: Db,
  dbPath: string,
  filters: RateFilters,
  redaction: Redaction,
  format: 'md' | 'json',
  toolVersion: string,
  scope: 'claim' | 'all' = 'claim',
): ExportOutput {
  const demo = resolve(dbPath) === resolve(demoDbPath());
  const report = buildEvidenceReport(db, filters, redaction, toolVersion, new Date(), { demo, scope });
  const notes: string[] = [];
  for (const w of report.warnings ?? []) notes.push(`warning: ${w}`);
  if (format === 'json') {
    const text = JSON.stringify(report, null, 2) + '\n';
    notes.push(`${text.length} characters (JSON: every finding; too long for an issue body when over 65,536)`);
    return { text, notes };
  }
  const rendered = renderEvidence(report);
  notes.push(`${rendered.chars} characters (GitHub takes up to 65,536)`);
  if (rendered.omitted.length) notes.push(`warning: cut to fit: left out ${rendered.omitted.join('; ')} (the report says so; --format json has everything)`);
  return { text: rendered.markdown, notes };
}
