import type { EvidenceReport, RateRow, Redaction, ReportRateRow } from '../../shared/api-schemas';
import { DETECTOR_DEFINITIONS_VERSION, FINDING_DEFINITIONS, type FindingCode } from '../../shared/finding-codes';
import type { Db } from '../store/database';
import { filePseudonym, pseudonymSalt } from '../store/pseudonym-salt';
import { getFindings } from './get-findings';
import { getRates, selectedCodes } from './get-rates';
import { getRegressions } from './get-regressions';
import { getSummary } from './get-summary';
import type { RateFilters } from './rate-filters';

export const DEFAULT_REDACTION: Redaction = { files: 'pseudonymize', lines: 'keep', digests: 'keep', models: 'keep' };

/** Redaction chosen per request (query parameters or CLI flags of the same names), defaults filled in. */
export function redactionOf(q: Partial<Redaction>): Redaction {
  return {
    files: q.files ?? DEFAULT_REDACTION.files,
    lines: q.lines ?? DEFAULT_REDACTION.lines,
    digests: q.digests ?? DEFAULT_REDACTION.digests,
    models: q.models ?? DEFAULT_REDACTION.models,
  };
}

/** The model family only: `claude-opus-4-8` → `opus`; anything unrecognised → `other`. */
export function modelFamily(model: string | null): string | null {
  if (model === null) return null;
  const m = /(opus|sonnet|haiku)/.exec(model);
  return m ? m[1]! : 'other';
}

const toReportRows = (rows: RateRow[]): ReportRateRow[] =>
  rows.map((r) => ({
    key: r.key,
    assistant_messages: r.assistant_messages,
    tool_use_turns: r.tool_use_turns,
    stop_known_messages: r.stop_known_messages,
    capture_messages: r.capture_messages,
    synthetic_messages: r.synthetic_messages ?? 0,
    stop_reason_coverage: r.stop_reason_coverage ?? null,
    codes: r.codes.map((c) => ({
      code: c.code,
      count: c.count,
      opportunity: c.opportunity,
      opportunities: c.opportunities,
      per_1000_opportunities: c.per_1000_opportunities,
      not_measurable: c.not_measurable,
      per_1000_tool_use_turns: c.per_1000_tool_use_turns,
    })),
  }));

/**
 * The evidence report for a bug tracker: what was scanned (counts, never paths), tables per
 * version and day, regression verdicts and the findings, redacted as asked. Built only from
 * the index, which holds no payload.
 */
export function buildEvidenceReport(db: Db, filters: RateFilters, redaction: Redaction, toolVersion: string, now = new Date()): EvidenceReport {
  const summary = getSummary(db, filters);
  const regressions = getRegressions(db, filters);
  const salt = redaction.files === 'pseudonymize' ? pseudonymSalt(db) : '';
  const findings: EvidenceReport['findings'] = [];
  let cursor: string | undefined;
  do {
    const page = getFindings(db, filters, { sort: 'day_asc', limit: 500, cursor });
    for (const f of page.items) {
      findings.push({
        code: f.code,
        day: f.day,
        version: f.version,
        model: redaction.models === 'generalize' ? modelFamily(f.model) : f.model,
        ...(redaction.files === 'keep' ? { file: f.file } : redaction.files === 'pseudonymize' ? { file: filePseudonym(salt, f.file) } : {}),
        ...(redaction.lines === 'keep' ? { lines: f.lines, source_lines: f.source_lines } : {}),
        block_types: f.block_types,
        signed_thinking: f.signed_thinking,
        sidechain: f.sidechain,
        counted: f.counted,
        details: f.details,
        ...(redaction.digests === 'keep' ? { evidence_sha256: f.evidence_sha256 } : {}),
      });
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);

  const filterEcho: Record<string, string> = {};
  if (filters.codes?.length) filterEcho.code = filters.codes.join(',');
  if (filters.versions?.length) filterEcho.version = filters.versions.join(',');
  if (filters.models?.length) filterEcho.model = redaction.models === 'generalize' ? filters.models.map(modelFamily).join(',') : filters.models.join(',');
  if (filters.from) filterEcho.from = filters.from;
  if (filters.to) filterEcho.to = filters.to;
  if (filters.rootIds?.length) filterEcho.roots = String(filters.rootIds.length);
  if (filters.sidechain !== undefined) filterEcho.sidechain = filters.sidechain ? 'sidechain' : 'main';

  return {
    report_format: 1,
    tool: { name: 'tool-call-forensics', version: toolVersion },
    detector_definitions_version: DETECTOR_DEFINITIONS_VERSION,
    generated_at: now.toISOString(),
    redaction,
    filters: filterEcho,
    scanned: {
      roots: summary.roots,
      files_ok: summary.files_ok,
      files_failed: summary.files_failed,
      files_in_progress: summary.files_in_progress,
      assistant_messages: summary.assistant_messages,
      tool_use_turns: summary.tool_use_turns,
      stop_known_messages: summary.stop_known_messages,
      capture_messages: summary.capture_messages,
      synthetic_messages: summary.synthetic_messages,
      first_day: summary.first_day,
      last_day: summary.last_day,
    },
    definitions: selectedCodes(filters).map((code) => ({ code, definition: FINDING_DEFINITIONS[code as FindingCode] })),
    by_version: toReportRows(getRates(db, 'version', filters)),
    by_day: toReportRows(getRates(db, 'day', filters)),
    // Per-model verdicts would name exact models; with models=generalize only the all-models verdicts remain.
    regressions: { method: regressions.method, verdicts: regressions.verdicts.filter((v) => redaction.models === 'keep' || v.model === null) },
    findings,
  };
}
