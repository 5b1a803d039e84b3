import type { Agent } from '../../shared/agents';
import { FORMAT_HINTS, type FormatHint } from '../../shared/format-hints';
import { printable } from '../../shared/printable';
import { SALVAGE_ADVICE, SALVAGEABLE_CODES } from '../../shared/salvage-advice';
import type { ScanErrorCode } from '../../shared/scan-errors';
import { analyseFile, type FileAnalysis, type FindingRecord } from '../detect/analyse-file';
import { materialiseSessions } from '../scan/opencode-db';
import { walkInputs } from '../scan/walk-inputs';
import { type FitColumn, fitTable, PLAIN, paint, type Terminal, wrapText } from './terminal';

export interface ScanReport {
  findings: Array<{
    /** Whose transcript the file is (decided from its content, shared/agents.ts). */
    agent: Agent;
    block_types: string[];
    code: string;
    evidence_sha256: string;
    file: string;
    lines: [number, number];
    model: string | null;
    signed_thinking: boolean;
    source_lines: number[];
  }>;
  /** `hint` (unknown_format only, when cheap to tell): what the file looks like, a fixed name (shared/format-hints.ts). */
  /** `piece` (a session of OpenCode's storage tree): the message or part file that stopped it, relative like `file`. */
  errors: Array<{ file: string; line: number | null; code: ScanErrorCode; hint?: FormatHint; piece?: string }>;
  summary: {
    assistant_messages_checked: number;
    files_scanned: number;
    files_failed: number;
    /** Files being written: a cut last line in a file modified less than QUIET_PERIOD_MS (read-json-rows.ts, 10 minutes) ago. */
    files_in_progress: number;
    findings: number;
    symlinks_skipped: number;
    /** Only with --salvage: files read around damaged lines (each listed in `salvaged`). */
    files_salvaged?: number;
    /** Zero bytes or blank lines only: part of files_scanned, neither read nor failed; they leave the exit status alone. */
    files_empty: number;
    /** Walked `.json` files that do not begin like a transcript (a package.json): not read, not failed (walk-inputs.ts). */
    files_passed_over: number;
    /** Files read (recognised, not empty), by the format that read them. */
    files_read_by_format: Record<string, number>;
    /** Files read (recognised, not empty), by agent (decided from the content). */
    files_read_by_agent: Record<string, number>;
    /** Only with --agent: files read whose agent was not asked for (nothing else of them is reported). */
    files_other_agents?: number;
    /** Files that failed, by code (the `errors` of files; inputs that could not be walked included). */
    files_refused_by_code: Record<string, number>;
  };
  /**
   * Per file, counts that are not findings (only files with at least one): calls split from
   * their result by compaction, calls open at the end of the file, and calls with non-empty
   * input refused by validation (total, and by error kind).
   */
  diagnostics: Array<{
    file: string;
    compaction_split: number;
    call_open_at_end: number;
    rejected_tool_input: number;
    rejected_tool_input_by_kind: Record<string, number>;
    /** Rows of a type the reader does not know, by name (names failing the metadata pattern, or no type: `other`). */
    unknown_row_types: Record<string, number>;
  }>;
  /** Only with --salvage: the damaged lines of each salvaged file (code, line, whether a torn row was dropped). */
  salvaged?: Array<{ file: string; code: ScanErrorCode; line: number; rows_kept: number; torn_row_dropped: boolean }>;
}

/** What the terminal line says of a finding beyond the JSON's fields (--json stays as it was). */
export interface FindingContext {
  version: string | null;
  day: string | null;
  /** A built-in tool name, or mcp / other (the detector's `tool`); null when the code records none. */
  tool: string | null;
  /** The call's result classified by fixed patterns (`error_kind`), or an API pairing error's kind. */
  error_kind: string | null;
}

// Kept beside the report's findings rather than in them, so the JSON report is unchanged.
const contexts = new WeakMap<ScanReport['findings'][number], FindingContext>();

/** The version, day, tool and error kind of a finding of a report runScan built (nulls for one parsed from JSON). */
export function findingContext(f: ScanReport['findings'][number]): FindingContext {
  return contexts.get(f) ?? { version: null, day: null, tool: null, error_kind: null };
}

const detail = (v: string | number | boolean | undefined) => (typeof v === 'string' ? v : null);

function toReportFinding(name: string, f: FindingRecord): ScanReport['findings'][number] {
  const finding = {
    agent: f.agent,
    block_types: f.blockTypes,
    code: f.code,
    evidence_sha256: f.evidenceSha256,
    file: name,
    lines: f.lines,
    model: f.model,
    signed_thinking: f.signedThinking,
    source_lines: f.sourceLines,
  };
  contexts.set(finding, { version: f.version, day: f.day, tool: detail(f.details.tool), error_kind: detail(f.details.error_kind ?? f.details.kind) });
  return finding;
}

/** A storage piece's name relative to the input, from its session's (`…/session/<projectID>/<id>.json`): the tree's folder, then the piece. */
function pieceName(sessionName: string, piece: string): string {
  const parts = sessionName.split('/');
  return parts.length >= 3 && parts[parts.length - 3] === 'session' ? [...parts.slice(0, -3), piece].join('/') : piece;
}

/**
 * Reads a file as `scan` does: a failure that may be a cut last line (no \n, not yet a whole
 * value) is read again the way `index` reads it, with the same 10-minute rule (QUIET_PERIOD_MS):
 * in a file modified less than 10 minutes ago it is being written (in_progress), in a file quiet
 * for longer it fails as `unfinished_last_line`. Any other failure stays as it was.
 */
function analyseForScan(path: string, now: number, salvage: boolean): FileAnalysis {
  const analysis = analyseFile(path, { salvage });
  if (analysis.status !== 'failed' || !['malformed_json', 'invalid_utf8'].includes(analysis.failure.code)) return analysis;
  const again = analyseFile(path, { forIndex: true, salvage, now });
  return again.status === 'in_progress' || (again.status === 'failed' && again.failure.code === 'unfinished_last_line') ? again : analysis;
}

export interface RunScanOptions {
  /** Read the complete rows of damaged files instead of failing them (see server/cli/README.md, "Salvage"). */
  salvage?: boolean;
  /** The time "recently modified" is measured from (tests pass their own). */
  now?: number;
  /** Only these agents' files are reported (read files of other agents are counted in `files_other_agents`). */
  agents?: readonly string[];
}

/** Scan explicit inputs and build the payload-free report. Throws InputError for unusable inputs. */
export function runScan(inputs: readonly string[], options: RunScanOptions = {}): ScanReport {
  const now = options.now ?? Date.now();
  const walk = walkInputs(inputs);
  const report: ScanReport = {
    findings: [],
    errors: walk.problems.map((p) => ({ file: p.name, line: null, code: p.code })),
    summary: {
      assistant_messages_checked: 0,
      files_scanned: 0,
      files_failed: 0,
      files_in_progress: 0,
      findings: 0,
      symlinks_skipped: walk.symlinksSkipped,
      files_empty: 0,
      files_passed_over: walk.passedOver ?? 0,
      files_read_by_format: {},
      files_read_by_agent: {},
      files_refused_by_code: {},
    },
    diagnostics: [],
  };
  if (options.salvage) {
    report.summary.files_salvaged = 0;
    report.salvaged = [];
  }
  // OpenCode's databases (issue 38): each session rebuilt from a private copy and read as its export; deleted after.
  const files = [...walk.files];
  const cleanups: (() => void)[] = [];
  for (const database of walk.databases ?? []) {
    const sessions = materialiseSessions(database);
    cleanups.push(sessions.cleanup);
    files.push(...sessions.files);
    for (const f of sessions.failures) {
      report.summary.files_scanned++;
      report.summary.files_failed++;
      report.errors.push({ file: f.name, line: null, code: f.code, ...(f.hint ? { hint: f.hint } : {}) });
    }
  }
  try {
    scanFiles(files, report, now, options);
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
  return report;
}

function scanFiles(files: readonly { path: string; name: string }[], report: ScanReport, now: number, options: RunScanOptions): void {
  for (const file of files) {
    const analysis = analyseForScan(file.path, now, options.salvage === true);
    report.summary.files_scanned++;
    if (analysis.status === 'in_progress') {
      // Like the index: it contributes nothing until it is complete (its last message may be cut mid-write).
      report.summary.files_in_progress++;
      continue;
    }
    if (analysis.status !== 'ok') {
      const failure = analysis.failure;
      report.summary.files_failed++;
      const error: ScanReport['errors'][number] = { file: file.name, line: failure.line, code: failure.code };
      if (failure.hint) error.hint = failure.hint;
      if (failure.piece) error.piece = pieceName(file.name, failure.piece);
      report.errors.push(error);
      continue;
    }
    if (analysis.empty) {
      report.summary.files_empty++;
      continue;
    }
    if (options.agents && !options.agents.includes(analysis.agent)) {
      report.summary.files_other_agents = (report.summary.files_other_agents ?? 0) + 1;
      continue;
    }
    report.summary.files_read_by_format[analysis.format] = (report.summary.files_read_by_format[analysis.format] ?? 0) + 1;
    report.summary.files_read_by_agent[analysis.agent] = (report.summary.files_read_by_agent[analysis.agent] ?? 0) + 1;
    report.summary.assistant_messages_checked += analysis.assistantMessages;
    for (const f of analysis.findings) report.findings.push(toReportFinding(file.name, f));
    const d = {
      file: file.name,
      compaction_split: 0,
      call_open_at_end: 0,
      rejected_tool_input: 0,
      rejected_tool_input_by_kind: {} as Record<string, number>,
      unknown_row_types: {} as Record<string, number>,
    };
    let unknownRows = 0;
    for (const v of analysis.diagnostics ?? []) {
      for (const [name, n] of Object.entries(v.unknownRowTypes)) {
        d.unknown_row_types[name] = (d.unknown_row_types[name] ?? 0) + n;
        unknownRows += n;
      }
      d.compaction_split += v.compactionSplits;
      d.call_open_at_end += v.callsOpenAtEnd;
      for (const [kind, n] of Object.entries(v.rejectedToolInput)) {
        d.rejected_tool_input += n;
        d.rejected_tool_input_by_kind[kind] = (d.rejected_tool_input_by_kind[kind] ?? 0) + n;
      }
    }
    if (d.compaction_split + d.call_open_at_end + d.rejected_tool_input + unknownRows > 0) report.diagnostics.push(d);
    if (report.salvaged && analysis.salvaged?.length) {
      report.summary.files_salvaged = (report.summary.files_salvaged ?? 0) + 1;
      for (const s of analysis.salvaged)
        report.salvaged.push({ file: file.name, code: s.code, line: s.line, rows_kept: s.rowsKept, torn_row_dropped: s.stubDropped });
    }
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  report.findings.sort((a, b) => byName(a.file, b.file) || a.lines[0] - b.lines[0] || byName(a.code, b.code));
  report.errors.sort((a, b) => byName(a.file, b.file));
  report.diagnostics.sort((a, b) => byName(a.file, b.file));
  report.salvaged?.sort((a, b) => byName(a.file, b.file) || a.line - b.line);
  report.summary.findings = report.findings.length;
  for (const e of report.errors) report.summary.files_refused_by_code[e.code] = (report.summary.files_refused_by_code[e.code] ?? 0) + 1;
}

export function scanExitCode(report: ScanReport): 0 | 1 | 2 {
  if (report.errors.length > 0) return 2;
  return report.findings.length > 0 ? 1 : 0;
}

/** A model id as the narrow line shows it: without the `claude-` prefix and a trailing date (claude-haiku-4-5-20251001: haiku-4-5). */
export function shortModel(model: string): string {
  return model.replace(/^claude-/, '').replace(/-\d{8}$/, '');
}

/**
 * The terminal report: one line per finding (file, lines, code, version, day, model, tool,
 * error kind; the last two only when a finding records them), then the files that failed,
 * were salvaged or hold diagnostics, then the counts, every line within `t.width` columns (file
 * names cut in the middle). The same facts as the JSON report, which stays the full record.
 */
export function formatScanTable(report: ScanReport, t: Terminal = PLAIN): string {
  const out: string[] = [];
  const file = (name: string) => printable(name);
  // What gives way first when a line is too wide: the file name (to 24 columns), the gap, the tool,
  // error kind and model, the file (to 16), the code (to 16), then everything to a few columns.
  const never = Number.POSITIVE_INFINITY;
  const fileMin = [24, 24, 24, 16, 16, 10];
  const at = (third: number, last: number) => [never, never, third, third, third, last];
  const title = (text: string) => out.push('', ...wrapText(text, t.width).map((l) => paint(t, 'bold', l)));
  if (report.findings.length > 0) {
    const ctx = report.findings.map(findingContext);
    const columns: FitColumn[] = [
      { header: 'file', cells: report.findings.map((f) => file(f.file)), min: fileMin },
      { header: 'lines', cells: report.findings.map((f) => (f.lines[0] === f.lines[1] ? String(f.lines[0]) : `${f.lines[0]}-${f.lines[1]}`)), right: true },
      { header: 'code', cells: report.findings.map((f) => f.code), min: [never, never, never, 16, 16, 8], style: 'yellow' },
      { header: 'version', cells: ctx.map((c) => c.version ?? '-') },
      { header: 'day', cells: ctx.map((c) => c.day ?? '-') },
      {
        header: 'model',
        cells: report.findings.map((f) => f.model ?? '-'),
        short: report.findings.map((f) => (f.model === null ? '-' : shortModel(f.model))),
        min: at(8, 6),
      },
    ];
    if (ctx.some((c) => c.tool !== null)) columns.push({ header: 'tool', cells: ctx.map((c) => c.tool ?? '-'), min: at(6, 4) });
    if (ctx.some((c) => c.error_kind !== null))
      columns.push({ header: 'error kind', shortHeader: 'error', cells: ctx.map((c) => c.error_kind ?? '-'), min: at(8, 5) });
    out.push(...fitTable(columns, t));
  } else {
    out.push('No findings.');
  }
  if (report.errors.length > 0) {
    title('Errors (these files contributed nothing and are not counted as clean):');
    out.push(
      ...fitTable(
        [
          { header: 'file', cells: report.errors.map((e) => file(e.file)), min: fileMin },
          { header: 'line', cells: report.errors.map((e) => (e.line === null ? '-' : String(e.line))), right: true },
          { header: 'code', cells: report.errors.map((e) => e.code), min: at(12, 8), style: 'red' },
          {
            header: 'looks like / what to do',
            shortHeader: 'note',
            cells: report.errors.map((e) => (e.hint ? FORMAT_HINTS[e.hint] : SALVAGEABLE_CODES.includes(e.code) ? SALVAGE_ADVICE.scan : '-')),
            min: [never, 24, 24, 16, 16, 8],
          },
        ],
        t,
      ),
    );
  }
  if (report.salvaged?.length) {
    title('Salvaged (damaged lines read around at your request; messages a dropped torn row could belong to are counted nowhere):');
    out.push(
      ...fitTable(
        [
          { header: 'file', cells: report.salvaged.map((s) => file(s.file)), min: fileMin },
          { header: 'line', cells: report.salvaged.map((s) => String(s.line)), right: true },
          { header: 'code', cells: report.salvaged.map((s) => s.code), min: at(12, 8), style: 'yellow' },
          { header: 'rows kept', cells: report.salvaged.map((s) => String(s.rows_kept)), right: true },
          { header: 'torn row dropped', cells: report.salvaged.map((s) => (s.torn_row_dropped ? 'yes' : 'no')), min: [16, 16, 4, 4, 4, 3] },
        ],
        t,
      ),
    );
  }
  if (report.diagnostics.length > 0) {
    title('Diagnostics (not findings): compaction splits, calls open at the end, rejected tool input, unknown row types:');
    out.push(
      ...fitTable(
        [
          { header: 'file', cells: report.diagnostics.map((d) => file(d.file)), min: fileMin },
          { header: 'splits', cells: report.diagnostics.map((d) => String(d.compaction_split)), right: true },
          { header: 'open', cells: report.diagnostics.map((d) => String(d.call_open_at_end)), right: true },
          { header: 'rejected', cells: report.diagnostics.map((d) => String(d.rejected_tool_input)), right: true },
          { header: 'unknown row types', cells: report.diagnostics.map((d) => printable(counts(d.unknown_row_types)) || '-'), min: [24, 24, 12, 12, 12, 6] },
        ],
        t,
      ),
    );
  }
  const s = report.summary;
  out.push('');
  for (const text of [
    `files scanned: ${s.files_scanned}, failed: ${s.files_failed}, still being written: ${s.files_in_progress} (not read; scan again later)` +
      (s.files_salvaged === undefined ? '' : `, salvaged: ${s.files_salvaged}`),
    `assistant messages checked: ${s.assistant_messages_checked}; findings: ${s.findings}; symbolic links skipped: ${s.symlinks_skipped}`,
    `files empty (zero bytes or blank lines; not read, not failed): ${s.files_empty}; .json files passed over (not transcripts): ${s.files_passed_over}`,
    `read by format: ${counts(s.files_read_by_format) || 'none'}`,
    `refused by code: ${counts(s.files_refused_by_code) || 'none'}`,
    ...(s.files_refused_by_code.concatenated_rows && s.files_salvaged === undefined
      ? [`concatenated_rows (two rows on one line): scan --salvage keeps their complete rows.`]
      : []),
  ])
    out.push(...wrapText(text, t.width));
  return out.join('\n') + '\n';
}

/** `name n, name n` in name order. */
function counts(byName: Record<string, number>): string {
  return Object.keys(byName)
    .sort()
    .map((k) => `${k} ${byName[k]}`)
    .join(', ');
}
