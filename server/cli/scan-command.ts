import { printable } from '../../shared/printable';
import type { ScanErrorCode } from '../../shared/scan-errors';
import { analyseFile, type FindingRecord } from '../detect/analyse-file';
import { walkInputs } from '../scan/walk-inputs';

export interface ScanReport {
  findings: Array<{
    block_types: string[];
    code: string;
    evidence_sha256: string;
    file: string;
    lines: [number, number];
    model: string | null;
    signed_thinking: boolean;
    source_lines: number[];
  }>;
  errors: Array<{ file: string; line: number | null; code: ScanErrorCode }>;
  summary: {
    assistant_messages_checked: number;
    files_scanned: number;
    files_failed: number;
    findings: number;
    symlinks_skipped: number;
  };
}

function toReportFinding(name: string, f: FindingRecord): ScanReport['findings'][number] {
  return {
    block_types: f.blockTypes,
    code: f.code,
    evidence_sha256: f.evidenceSha256,
    file: name,
    lines: f.lines,
    model: f.model,
    signed_thinking: f.signedThinking,
    source_lines: f.sourceLines,
  };
}

/** Scan explicit inputs and build the payload-free report. Throws InputError for unusable inputs. */
export function runScan(inputs: readonly string[]): ScanReport {
  const walk = walkInputs(inputs);
  const report: ScanReport = {
    findings: [],
    errors: walk.problems.map((p) => ({ file: p.name, line: null, code: p.code })),
    summary: { assistant_messages_checked: 0, files_scanned: 0, files_failed: 0, findings: 0, symlinks_skipped: walk.symlinksSkipped },
  };
  for (const file of walk.files) {
    const analysis = analyseFile(file.path);
    report.summary.files_scanned++;
    if (analysis.status !== 'ok') {
      // `scan` is not asked to tolerate a cut last line, so every non-ok file carries a failure.
      const failure = analysis.status === 'failed' ? analysis.failure : { code: 'malformed_json' as const, line: analysis.lines };
      report.summary.files_failed++;
      report.errors.push({ file: file.name, line: failure.line, code: failure.code });
      continue;
    }
    report.summary.assistant_messages_checked += analysis.assistantMessages;
    for (const f of analysis.findings) report.findings.push(toReportFinding(file.name, f));
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  report.findings.sort((a, b) => byName(a.file, b.file) || a.lines[0] - b.lines[0] || byName(a.code, b.code));
  report.errors.sort((a, b) => byName(a.file, b.file));
  report.summary.findings = report.findings.length;
  return report;
}

export function scanExitCode(report: ScanReport): 0 | 1 | 2 {
  if (report.errors.length > 0) return 2;
  return report.findings.length > 0 ? 1 : 0;
}

/** A plain-text table with the same facts as the JSON report. */
export function formatScanTable(report: ScanReport): string {
  const out: string[] = [];
  if (report.findings.length > 0) {
    const rows = report.findings.map((f) => [
      f.code,
      f.file,
      f.lines[0] === f.lines[1] ? String(f.lines[0]) : `${f.lines[0]}-${f.lines[1]}`,
      f.source_lines.join(','),
      f.model ?? '-',
      f.block_types.join(',') || '-',
      f.signed_thinking ? 'yes' : 'no',
      f.evidence_sha256.slice(0, 16),
    ]);
    out.push(table(['code', 'file', 'lines', 'source lines', 'model', 'block types', 'signed thinking', 'evidence sha256 (prefix)'], rows));
  } else {
    out.push('No findings.');
  }
  if (report.errors.length > 0) {
    out.push('', 'Errors (these files contributed nothing and are not counted as clean):');
    out.push(
      table(
        ['file', 'line', 'code'],
        report.errors.map((e) => [e.file, e.line === null ? '-' : String(e.line), e.code]),
      ),
    );
  }
  const s = report.summary;
  out.push(
    '',
    `files scanned: ${s.files_scanned}, failed: ${s.files_failed}; assistant messages checked: ${s.assistant_messages_checked}; ` +
      `findings: ${s.findings}; symbolic links skipped: ${s.symlinks_skipped}`,
  );
  return out.join('\n') + '\n';
}

function table(header: string[], anyRows: string[][]): string {
  // File names (and anything else) are printed escaped: a newline or escape code in a name cannot forge rows.
  const rows = anyRows.map((r) => r.map(printable));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
