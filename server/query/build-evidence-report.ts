import { createHmac } from 'node:crypto';
import type { EvidenceReport, Redaction, RegressionVerdict } from '../../shared/api-schemas';
import { DETECTOR_DEFINITIONS_VERSION, FINDING_DEFINITIONS, type FindingCode } from '../../shared/finding-codes';
import { perThousand } from '../../shared/statistics';
import type { Db } from '../store/database';
import { filePseudonym, pseudonymSalt } from '../store/pseudonym-salt';
import { getFindings } from './get-findings';
import { countFindingsFromGoneFiles } from './get-gone-counts';
import { getRates, type RateRow, selectedCodes } from './get-rates';
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

const toReportRows = (rows: RateRow[]) =>
  rows.map((r) => ({
    key: r.key,
    assistant_messages: r.assistant_messages,
    tool_use_turns: r.tool_use_turns,
    stop_known_messages: r.stop_known_messages,
    capture_messages: r.capture_messages,
    synthetic_messages: r.synthetic_messages ?? 0,
    stop_reason_coverage: r.stop_reason_coverage ?? (r.assistant_messages > 0 ? r.stop_known_messages / r.assistant_messages : null),
    codes: r.codes.map((c) => ({
      code: c.code,
      count: c.count,
      // Report format 1 carries the rate per tool-use turn too (verify reads it back); the API no longer does.
      per_1000_tool_use_turns: perThousand(c.count, r.tool_use_turns),
      opportunity: c.opportunity,
      opportunities: c.opportunities,
      per_1000_opportunities: c.per_1000_opportunities,
      not_measurable: c.not_measurable,
    })),
  }));

/** Session folders (UUIDs) and Claude Code's own folder names are kept; every other folder is a project folder. */
const SESSION_FOLDER = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|subagents|projects)$/;

/**
 * `keep-session`: the session file's own name (a session id) and its session and subagents
 * folders stay; every other folder, i.e. the project folder Claude Code names after the working
 * directory (`-Users-<name>-work-…`), becomes `project-<8 hex>` (keyed by this index's salt).
 */
export function keepSessionName(salt: string, relPath: string): string {
  const parts = relPath.split('/');
  return parts
    .map((part, i) =>
      i === parts.length - 1 || SESSION_FOLDER.test(part)
        ? part
        : `project-${createHmac('sha256', salt).update(`folder\u0000${part}`).digest('hex').slice(0, 8)}`,
    )
    .join('/');
}

/** A folder name Claude Code derived from a working directory (`-Users-ann-…`, `C--Users-…`): it names the user. */
export function isHomeDerived(name: string): boolean {
  return name.split('/').some((part) => /^-[A-Za-z0-9]/.test(part) || /^[A-Za-z]--/.test(part));
}

const rateOf = (f: { count: number; tool_use_turns: number } | null) => (f && f.tool_use_turns > 0 ? (f.count / f.tool_use_turns) * 1000 : 0);
const fmtPerMille = (v: number) => (v === 0 ? '0' : v < 1 ? v.toFixed(2) : v < 10 ? v.toFixed(1) : v.toFixed(0));
const fmtP = (p: number) => (p < 1e-4 ? p.toExponential(1) : p.toPrecision(2));

/** The strongest all-models regression by version (smallest p), if any. */
export function leadVerdict(verdicts: readonly RegressionVerdict[]): RegressionVerdict | null {
  const found = verdicts.filter((v) => v.model === null && v.dimension === 'version' && v.status === 'regression' && v.p_value !== null);
  return found.sort((a, b) => a.p_value! - b.p_value!)[0] ?? null;
}

/** Title and headline (one to three sentences) from the counts and the verdicts. */
export function titleAndHeadline(r: Pick<EvidenceReport, 'scanned' | 'by_version' | 'regressions'> & { demo?: boolean }): { title: string; headline: string } {
  const totals = new Map<string, number>();
  for (const row of r.by_version) for (const c of row.codes) totals.set(c.code, (totals.get(c.code) ?? 0) + c.count);
  const present = [...totals].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const total = present.reduce((a, [, n]) => a + n, 0);
  const versions = r.by_version.flatMap((v) => (v.key ? [v.key] : []));
  const span = versions.length ? (versions.length === 1 ? versions[0]! : `${versions[0]}–${versions[versions.length - 1]}`) : 'unknown versions';
  const demo = r.demo ? 'Demo data (generated transcripts, not real sessions): ' : '';
  const s = r.scanned;
  const lead = leadVerdict(r.regressions.verdicts);
  const sentences: string[] = [];
  if (total === 0) {
    sentences.push(
      `${demo}no lost tool calls found in ${s.tool_use_turns} tool-use turns (${s.assistant_messages} assistant messages, Claude Code ${span}, ${s.first_day ?? '?'} to ${s.last_day ?? '?'}).`,
    );
  } else {
    const top = present
      .slice(0, 3)
      .map(([c, n]) => `${c} (${n})`)
      .join(', ');
    sentences.push(
      `${demo}${total} findings of ${present.length} kind${present.length === 1 ? '' : 's'} in ${s.tool_use_turns} tool-use turns of Claude Code ${span} (${s.first_day ?? '?'} to ${s.last_day ?? '?'}): ${top}.`,
    );
  }
  if (lead) {
    sentences.push(
      `${lead.code} rose from ${fmtPerMille(rateOf(lead.before))}‰ up to ${lead.last_good} to ${fmtPerMille(rateOf(lead.after))}‰ from ${lead.first_bad} on ` +
        `(per 1,000 tool-use turns; p=${fmtP(lead.p_value!)}, one-sided Fisher exact test, below the Bonferroni threshold ${fmtP(lead.threshold ?? 0)}).`,
    );
  } else if (total > 0) {
    const tested = r.regressions.verdicts.some((v) => v.model === null && v.dimension === 'version' && v.status !== 'insufficient_data');
    sentences.push(
      tested
        ? 'No Claude Code version is significantly above the earlier ones for any code (one-sided Fisher exact tests, Bonferroni-corrected).'
        : 'Too few tool-use turns per version to say since when (no version could be tested).',
    );
  }
  const title = lead
    ? `${r.demo ? '[demo data] ' : ''}${lead.code} since Claude Code ${lead.first_bad}: ${fmtPerMille(rateOf(lead.before))}‰ → ${fmtPerMille(rateOf(lead.after))}‰ of tool-use turns`
    : `${r.demo ? '[demo data] ' : ''}${total === 0 ? 'No lost tool calls' : `${total} lost tool calls`} in Claude Code ${span} transcripts`;
  return { title, headline: sentences.join(' ') };
}

/**
 * The evidence report for a bug tracker: what was scanned (counts, never paths), tables per
 * version and day, regression verdicts and the findings, redacted as asked. Built only from
 * the index, which holds no payload.
 */
export function buildEvidenceReport(
  db: Db,
  filters: RateFilters,
  redaction: Redaction,
  toolVersion: string,
  now = new Date(),
  options: { demo?: boolean } = {},
): EvidenceReport {
  const summary = getSummary(db, filters);
  const regressions = getRegressions(db, filters);
  const salt = redaction.files === 'pseudonymize' || redaction.files === 'keep-session' ? pseudonymSalt(db) : '';
  const nameOf = (file: string) =>
    redaction.files === 'keep' ? file : redaction.files === 'keep-session' ? keepSessionName(salt, file) : filePseudonym(salt, file);
  let homeDerived = 0;
  const findings: EvidenceReport['findings'] = [];
  let cursor: string | undefined;
  do {
    const page = getFindings(db, filters, { sort: 'day_asc', limit: 500, cursor });
    for (const f of page.rows) {
      if (redaction.files === 'keep' && isHomeDerived(f.file)) homeDerived++;
      findings.push({
        code: f.code,
        day: f.day,
        version: f.version,
        model: redaction.models === 'generalize' ? modelFamily(f.model) : f.model,
        ...(redaction.files === 'omit' ? {} : { file: nameOf(f.file) }),
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
  if (filters.folderIds?.length) filterEcho.roots = String(filters.folderIds.length);
  if (filters.sidechain !== undefined) filterEcho.sidechain = filters.sidechain ? 'sidechain' : 'main';

  const byVersion = toReportRows(getRates(db, 'version', filters));
  const models = getRates(db, 'model', { ...filters, codes: [] }).flatMap((r) => (r.key ? [r.key] : []));
  const report: EvidenceReport = {
    report_format: 1,
    tool: { name: 'tool-call-forensics', version: toolVersion },
    detector_definitions_version: DETECTOR_DEFINITIONS_VERSION,
    generated_at: now.toISOString(),
    demo: options.demo === true,
    redaction,
    filters: filterEcho,
    scanned: {
      roots: summary.folders,
      files_ok: summary.files_ok,
      files_failed: summary.files_failed,
      files_in_progress: summary.files_in_progress,
      assistant_messages: summary.assistant_messages,
      tool_use_turns: summary.tool_use_turns,
      first_day: summary.first_day,
      last_day: summary.last_day,
      stop_known_messages: summary.stop_known_messages,
      capture_messages: summary.capture_messages,
      synthetic_messages: summary.synthetic_messages,
      versions: byVersion.flatMap((v) => (v.key ? [v.key] : [])),
      models: redaction.models === 'generalize' ? [...new Set(models.map((m) => modelFamily(m)!))] : models,
      files_gone: summary.files_gone,
      findings_from_gone_files: countFindingsFromGoneFiles(db, filters),
    },
    definitions: selectedCodes(filters).map((code) => ({ code, definition: FINDING_DEFINITIONS[code as FindingCode] })),
    by_version: byVersion,
    by_day: toReportRows(getRates(db, 'day', filters)),
    by_week: toReportRows(getRates(db, 'week', filters)),
    // Per-model verdicts would name exact models; with models=generalize only the all-models verdicts remain.
    regressions: { method: regressions.method, verdicts: regressions.verdicts.filter((v) => redaction.models === 'keep' || v.model === null) },
    findings,
  };
  if (homeDerived > 0) {
    report.warnings = [
      `files=keep prints ${homeDerived} file name${homeDerived === 1 ? '' : 's'} under Claude Code project folders, which are working directories with / turned to - (for example -Users-<name>-…): they can name you. Use files=keep-session to keep session file names and replace project folders.`,
    ];
  }
  return { ...report, ...titleAndHeadline(report) };
}
