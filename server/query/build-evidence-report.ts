import { createHmac } from 'node:crypto';
import type { EvidenceReport, Redaction, RegressionVerdict, VerdictCard } from '../../shared/api-schemas';
import { opportunityOf } from '../../shared/denominators';
import { DETECTOR_DEFINITIONS_VERSION, FINDING_DEFINITIONS, type FindingCode } from '../../shared/finding-codes';
import { opportunityWords } from '../../shared/format/opportunity-words';
import { formatP } from '../../shared/format/p-value';
import { formatPerMilleNumber } from '../../shared/format/per-mille';
import { perThousand } from '../../shared/statistics';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { filePseudonym, pseudonymSalt } from '../store/pseudonym-salt';
import { getFindings } from './get-findings';
import { countFindingsFromGoneFiles } from './get-gone-counts';
import { getRates, type RateRow, selectedCodes } from './get-rates';
import { getRegressions, getVerdictCards, SESSION_CAP } from './get-regressions';
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

/**
 * Format 2 rows are sparse: a code appears in a row only where it has findings (its opportunities are the row's own counts),
 * or, for the codes in `notMeasurable` (the per-version rows: the codes with findings), where it cannot be measured there:
 * "not measurable" is a fact a maintainer must see, never an absent row read as zero. Only versions of the legacy eras
 * have such entries for those few codes, so the size stays small.
 */
const toReportRows = (rows: RateRow[], notMeasurable: ReadonlySet<string> = new Set()) =>
  rows.map((r) => ({
    key: r.key,
    assistant_messages: r.assistant_messages,
    tool_use_turns: r.tool_use_turns,
    stop_known_messages: r.stop_known_messages,
    capture_messages: r.capture_messages,
    synthetic_messages: r.synthetic_messages ?? 0,
    stop_reason_coverage: r.stop_reason_coverage ?? (r.assistant_messages > 0 ? r.stop_known_messages / r.assistant_messages : null),
    codes: r.codes
      .filter((c) => c.count > 0 || (c.not_measurable !== null && notMeasurable.has(c.code)))
      .map((c) => ({
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

type Claim = NonNullable<EvidenceReport['claim']>;
type CodeSeen = NonNullable<EvidenceReport['other_codes']>[number];
type Side = NonNullable<Claim['before']>;

/** Effort levels the index records, for the environment block. Hook: null until the query layer offers effort as a dimension. */
export function effortLevels(_db: Db, _filters: RateFilters): string[] | null {
  return null;
}

/** The words for what a code's rate is over (shared/format's words for its opportunity). */
const codeOpportunityWords = (code: string) => opportunityWords(opportunityOf(code));

/** Versions as words: up to six listed, else the first and last. */
export function versionWords(versions: readonly string[]): string {
  if (versions.length === 0) return 'an unknown version';
  if (versions.length === 1) return versions[0]!;
  if (versions.length <= 6) return `${versions.slice(0, -1).join(', ')} and ${versions[versions.length - 1]}`;
  return `${versions.length} versions from ${versions[0]} to ${versions[versions.length - 1]}`;
}

/** Pooled findings over the code's own opportunities on some version rows. */
function sideOf(label: string, rows: RateRow[], code: string): Side {
  const opportunity = opportunityOf(code);
  let count = 0;
  let opportunities = 0;
  for (const r of rows) {
    count += r.codes.find((c) => c.code === code)?.count ?? 0;
    opportunities += (r as unknown as Record<string, number>)[opportunity] ?? 0;
  }
  return { label, count, opportunities, per_1000_opportunities: perThousand(count, opportunities) };
}

/** The strongest card that passed its test: strong before suggestive, a version before a day (what a maintainer acts on), then the smallest p-value. */
function strongestCard(cards: VerdictCard[], codes: ReadonlySet<string>): VerdictCard | null {
  const minP = (c: VerdictCard) => Math.min(...c.codes.map((x) => x.p_value ?? 1));
  return (
    cards
      .filter((c) => c.strength !== 'insufficient' && c.codes.some((x) => codes.has(x.code)))
      .sort((a, b) =>
        a.strength !== b.strength ? (a.strength === 'strong' ? -1 : 1) : a.dimension !== b.dimension ? (a.dimension === 'version' ? -1 : 1) : minP(a) - minP(b),
      )[0] ?? null
  );
}

/**
 * The one claim a default report makes: the strongest verdict card's code, else the code with
 * the most findings (or the one code asked for), with where it was seen, before and after, the test.
 */
function buildClaim(db: Db, filters: RateFilters, seen: CodeSeen[], versionRows: RateRow[]): Claim | null {
  if (seen.length === 0) return null;
  const codes = new Set(seen.map((s) => s.code));
  const cards = getVerdictCards(db, filters).rows;
  const only = filters.codes?.length === 1 && codes.has(filters.codes[0]!) ? filters.codes[0]! : null;
  const card = only === null ? strongestCard(cards, codes) : (strongestCard(cards, new Set([only])) ?? null);
  const code = only ?? card?.codes.find((c) => codes.has(c.code))?.code ?? seen[0]!.code;
  const chosen_by: Claim['chosen_by'] = only !== null ? 'code_filter' : card ? 'verdict_card' : 'most_findings';
  const where = seen.find((s) => s.code === code)!;
  const cc = card?.codes.find((c) => c.code === code);
  let before: Side | null;
  let after: Side | null;
  let test: string;
  if (card && cc) {
    const version = card.dimension === 'version';
    before = { label: version ? `up to ${card.last_good}` : `before ${card.first_bad}`, ...pick(cc.before) };
    after = { label: `from ${card.first_bad}`, ...pick(cc.after) };
    test =
      `${card.strength_text}: p=${formatP(cc.p_value ?? 1)}, below the Bonferroni threshold ${formatP(cc.threshold ?? 0)} ` +
      `(one-sided Fisher exact test of ${version ? 'each version against all earlier ones' : 'every split of the days, later against earlier'}; at most ${SESSION_CAP} findings per session counted)`;
  } else {
    const keys = versionRows.map((r) => r.key);
    const first = where.versions[0];
    const last = where.versions[where.versions.length - 1];
    const i0 = first === undefined ? -1 : keys.indexOf(first);
    const i1 = last === undefined ? -1 : keys.indexOf(last);
    before = i0 > 0 ? sideOf(`before ${first}`, versionRows.slice(0, i0), code) : null;
    after = i0 >= 0 ? sideOf(first === last ? `in ${first}` : `${first}–${last}`, versionRows.slice(i0, i1 + 1), code) : null;
    const thin = cards.find((c) => c.strength === 'insufficient' && c.dimension === 'version' && c.codes.some((x) => x.code === code));
    const tested = cards.length > 0 || thin !== undefined;
    test = thin
      ? `no version passes the test yet (${thin.strength_text})`
      : tested
        ? 'no version is significantly above the earlier ones (one-sided Fisher exact tests, Bonferroni-corrected)'
        : 'no version is significantly above the earlier ones, or none could be tested (one-sided Fisher exact tests, Bonferroni-corrected)';
  }
  return { ...where, chosen_by, before, after, test };
}

const pick = (s: { count: number; opportunities: number; per_1000_opportunities: Side['per_1000_opportunities'] }) => ({
  count: s.count,
  opportunities: s.opportunities,
  per_1000_opportunities: s.per_1000_opportunities,
});

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

/** The strongest all-models regression by version (smallest p), if any. */
export function leadVerdict(verdicts: readonly RegressionVerdict[]): RegressionVerdict | null {
  const found = verdicts.filter((v) => v.model === null && v.dimension === 'version' && v.status === 'regression' && v.p_value !== null);
  return found.sort((a, b) => a.p_value! - b.p_value!)[0] ?? null;
}

const sideWords = (s: Side, code: string) => {
  const r = s.per_1000_opportunities;
  return `${s.label}: ${s.count} in ${s.opportunities.toLocaleString('en-US')} ${codeOpportunityWords(code)}${r ? ` (${formatPerMilleNumber(r.rate)}‰, 95% interval ${formatPerMilleNumber(r.low)}–${formatPerMilleNumber(r.high)}‰)` : ''}`;
};

/** Title and first paragraph of a one-claim report: the code, where and when it was seen, before and after, the test. */
export function claimTitleAndHeadline(claim: Claim, demo: boolean): { title: string; headline: string } {
  const range =
    claim.versions.length === 0
      ? 'unknown versions'
      : claim.versions.length === 1
        ? claim.versions[0]!
        : `${claim.versions[0]}–${claim.versions[claim.versions.length - 1]}`;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const title = `${demo ? '[demo data] ' : ''}${claim.code} in Claude Code ${range}: ${plural(claim.findings, 'finding', 'findings')} in ${plural(claim.sessions, 'session', 'sessions')}`;
  const sentences = [
    `${demo ? 'Demo data (generated transcripts, not real sessions): ' : ''}${plural(claim.findings, 'finding', 'findings')} of \`${claim.code}\` in ${plural(claim.sessions, 'session', 'sessions')}, ` +
      `seen in Claude Code ${versionWords(claim.versions)} (first ${claim.first_day ?? '?'}, last ${claim.last_day ?? '?'}), model${claim.models.length === 1 ? '' : 's'} ${claim.models.join(', ') || 'unknown'}.`,
  ];
  if (claim.before) sentences.push(`Rate ${sideWords(claim.before, claim.code)}.`);
  if (claim.after) sentences.push(`${claim.before ? 'Then' : 'Rate'} ${sideWords(claim.after, claim.code)}.`);
  sentences.push(`Test: ${claim.test}.`);
  return { title, headline: sentences.join(' ') };
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
      `${lead.code} rose from ${formatPerMilleNumber(rateOf(lead.before))}‰ up to ${lead.last_good} to ${formatPerMilleNumber(rateOf(lead.after))}‰ from ${lead.first_bad} on ` +
        `(per 1,000 tool-use turns; p=${formatP(lead.p_value!)}, one-sided Fisher exact test, below the Bonferroni threshold ${formatP(lead.threshold ?? 0)}).`,
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
    ? `${r.demo ? '[demo data] ' : ''}${lead.code} since Claude Code ${lead.first_bad}: ${formatPerMilleNumber(rateOf(lead.before))}‰ → ${formatPerMilleNumber(rateOf(lead.after))}‰ of tool-use turns`
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
  options: { demo?: boolean; scope?: 'claim' | 'all' } = {},
): EvidenceReport {
  const summary = getSummary(db, filters);
  const regressions = getRegressions(db, filters);
  const salt = redaction.files === 'pseudonymize' || redaction.files === 'keep-session' ? pseudonymSalt(db) : '';
  const nameOf = (file: string) =>
    redaction.files === 'keep' ? file : redaction.files === 'keep-session' ? keepSessionName(salt, file) : filePseudonym(salt, file);
  let homeDerived = 0;
  const findings: EvidenceReport['findings'] = [];
  // Where each code was seen (counted findings only, as the rates count them), and the entrypoints recorded.
  const seenBy = new Map<string, { findings: number; files: Set<string>; versions: Set<string>; days: string[]; models: Set<string> }>();
  const entrypoints = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = getFindings(db, filters, { sort: 'day_asc', limit: 500, cursor });
    for (const f of page.rows) {
      if (redaction.files === 'keep' && isHomeDerived(f.file)) homeDerived++;
      if (typeof f.details.entrypoint === 'string') entrypoints.add(f.details.entrypoint);
      if (f.counted) {
        let w = seenBy.get(f.code);
        if (!w) seenBy.set(f.code, (w = { findings: 0, files: new Set(), versions: new Set(), days: [], models: new Set() }));
        w.findings++;
        w.files.add(`${f.folder_id}\u0000${f.file}`);
        if (f.version) w.versions.add(f.version);
        if (f.day) w.days.push(f.day);
        const model = redaction.models === 'generalize' ? modelFamily(f.model) : f.model;
        if (model) w.models.add(model);
      }
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
  if (filters.efforts?.length) filterEcho.effort = filters.efforts.join(',');
  if (filters.sidechain !== undefined) filterEcho.sidechain = filters.sidechain ? 'sidechain' : 'main';

  const versionRates = getRates(db, 'version', filters);
  const seen: CodeSeen[] = [...seenBy]
    .map(([code, w]) => ({
      code,
      findings: w.findings,
      sessions: w.files.size,
      versions: [...w.versions].sort(compareVersions),
      first_day: w.days.sort()[0] ?? null,
      last_day: w.days[w.days.length - 1] ?? null,
      models: [...w.models].sort(),
    }))
    .sort((a, b) => b.findings - a.findings || a.code.localeCompare(b.code));
  const claim = options.scope === 'all' ? null : buildClaim(db, filters, seen, versionRates);
  const withFindings = new Set(seen.map((x) => x.code));
  const byVersion = toReportRows(versionRates, withFindings);
  const models = getRates(db, 'model', { ...filters, codes: [] }).flatMap((r) => (r.key ? [r.key] : []));
  const efforts = Object.fromEntries(getRates(db, 'effort', { ...filters, codes: [] }).map((r) => [r.key || 'unknown', r.assistant_messages]));
  const report: EvidenceReport = {
    report_format: 2,
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
      efforts,
      files_gone: summary.files_gone,
      files_salvaged: summary.files_salvaged,
      findings_from_gone_files: countFindingsFromGoneFiles(db, filters),
    },
    definitions: selectedCodes(filters).map((code) => ({ code, definition: FINDING_DEFINITIONS[code as FindingCode] })),
    by_version: byVersion,
    // Days with findings only: the weekly rows hold every denominator (a report grows with its findings, not its days).
    by_day: toReportRows(getRates(db, 'day', filters)).filter((r) => r.codes.length > 0),
    by_week: toReportRows(getRates(db, 'week', filters)),
    // Per-model verdicts would name exact models; with models=generalize only the all-models verdicts remain.
    // Codes without findings have no verdict to give (the report names them once, as having none).
    regressions: {
      method: regressions.method,
      verdicts: regressions.verdicts.filter((v) => withFindings.has(v.code) && (redaction.models === 'keep' || v.model === null)),
    },
    ...(claim ? { claim, other_codes: seen.filter((x) => x.code !== claim.code) } : {}),
    environment: { entrypoints: [...entrypoints].sort(), efforts: effortLevels(db, filters), os: process.platform, arch: process.arch },
    findings,
  };
  if (homeDerived > 0) {
    report.warnings = [
      `files=keep prints ${homeDerived} file name${homeDerived === 1 ? '' : 's'} under Claude Code project folders, which are working directories with / turned to - (for example -Users-<name>-…): they can name you. Use files=keep-session to keep session file names and replace project folders.`,
    ];
  }
  return { ...report, ...(claim ? claimTitleAndHeadline(claim, options.demo === true) : titleAndHeadline(report)) };
}
