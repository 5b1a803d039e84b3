import { closeSync, readFileSync, realpathSync } from 'node:fs';
import { Compile } from 'typebox/compile';
import { EvidenceReport } from '../../shared/api-schemas';
import { FINDING_CODES } from '../../shared/finding-codes';
import { printable } from '../../shared/printable';
import { keepSessionName } from '../query/build-evidence-report';
import { digestLines } from '../scan/evidence-digest';
import { LineStarts, readLines } from '../scan/read-lines';
import { openRegularFile } from '../scan/safe-open';
import { type WalkResult, walkDirectory } from '../scan/walk-inputs';
import type { Db } from '../store/database';
import { filePseudonym, pseudonymSalt } from '../store/pseudonym-salt';
import { BadReportError } from './bad-report-error';

export { BadReportError };

export type VerifyStatus = 'match' | 'changed' | 'missing' | 'unverifiable';

export interface VerifyResult {
  index: number;
  code: string;
  file: string | null;
  status: VerifyStatus;
  reason: string;
}

/** The report's schema, compiled once: the interpreted check took 14 s on 200,000 findings. */
let compiledReport: { Check(value: unknown): boolean } | null = null;
const evidenceReportCheck = () => (compiledReport ??= Compile(EvidenceReport));

/** Line starts of the first `upTo` lines (plus the next), enough to digest lines ≤ upTo. */
function lineStartsUpTo(path: string, upTo: number): LineStarts | null {
  const { fd } = openRegularFile(path);
  try {
    const starts = new LineStarts();
    const outcome = readLines(fd, (_t, line) => (line > upTo ? 'stop' : 'continue'), starts);
    return outcome.lines >= upTo ? starts : null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Recomputes each finding's evidence digest from local files. Names in the report are
 * relative paths (files=keep) or pseudonyms, resolved through this database's salt; a
 * report without files, lines or digests cannot be verified (and says so).
 */
export function verifyReport(reportText: string, dirs: readonly string[], db: Db | null): VerifyResult[] {
  let report: EvidenceReport;
  try {
    const parsed = JSON.parse(reportText) as unknown;
    if (!evidenceReportCheck().Check(parsed)) throw new Error('shape');
    report = parsed as EvidenceReport;
  } catch {
    throw new BadReportError('the report is not a JSON evidence report of format 1 (export it with --format json)');
  }
  const walk: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
  const byName = new Map<string, string>();
  for (const dir of dirs) {
    walk.files = [];
    // Files are opened only at their real path (safe-open): resolve a folder named through a link once, here.
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      continue;
    }
    walkDirectory(real, '', walk);
    for (const f of walk.files) if (!byName.has(f.name)) byName.set(f.name, f.path);
  }
  let resolve: (name: string) => string | undefined = (name) => byName.get(name);
  if (report.redaction.files === 'pseudonymize' || report.redaction.files === 'keep-session') {
    if (!db) throw new BadReportError('this report names files by pseudonym: give the --db that exported it');
    let salt: string;
    try {
      salt = pseudonymSalt(db);
    } catch (error) {
      // Opened read-only: a database that has no salt yet never exported a pseudonymized report.
      if ((error as { code?: string }).code !== 'SQLITE_READONLY') throw error;
      throw new BadReportError('this database never exported a pseudonymized report: give the --db that exported it');
    }
    const rename = report.redaction.files === 'pseudonymize' ? filePseudonym : keepSessionName;
    const byPseudonym = new Map([...byName].map(([name, path]) => [rename(salt, name), path]));
    resolve = (name) => byPseudonym.get(name);
  }
  const checked = new Map<string, Pick<VerifyResult, 'status' | 'reason'>>();
  return report.findings.map((f, index) => {
    const base = { index, code: f.code, file: f.file ?? null };
    if (!f.file || !f.source_lines || !f.evidence_sha256) {
      return { ...base, status: 'unverifiable' as const, reason: 'the report omits the file, its lines or its digest' };
    }
    if (f.source_lines.length === 0 || f.source_lines.some((l) => !Number.isSafeInteger(l) || l < 1 || l > MAX_LINE)) {
      return { ...base, status: 'unverifiable' as const, reason: 'the report lists no line, or a line number that cannot exist' };
    }
    if (!/^[0-9a-f]{64}$/.test(f.evidence_sha256)) return { ...base, status: 'unverifiable' as const, reason: 'the report digest is not a SHA-256' };
    const path = resolve(f.file);
    if (!path) return { ...base, status: 'missing' as const, reason: 'no such file under the given folders' };
    // The same file, lines and digest are checked once (a forged report may repeat one finding many times).
    const key = `${path}\0${f.evidence_sha256}\0${f.source_lines.join(',')}`;
    let outcome = checked.get(key);
    if (!outcome) checked.set(key, (outcome = checkDigest(path, f.source_lines, f.evidence_sha256)));
    return { ...base, ...outcome };
  });
}

/** Whether the lines of the file at `path` still hash to `expected`. */
function checkDigest(path: string, sourceLines: readonly number[], expected: string): Pick<VerifyResult, 'status' | 'reason'> {
  // A loop, not Math.max(...spread): a forged report's 200,000 lines must not overflow the stack.
  let last = 0;
  for (const l of sourceLines) if (l > last) last = l;
  let digest: string;
  try {
    const starts = lineStartsUpTo(path, last);
    if (!starts) return { status: 'changed', reason: `the file now has fewer than ${last} lines` };
    digest = digestLines(path, starts, sourceLines);
  } catch {
    // Gone, not a regular file, reached through a link, or a listed line is blank: not the reported bytes.
    return { status: 'changed', reason: 'the source lines cannot be read as reported' };
  }
  return digest === expected ? { status: 'match', reason: 'same bytes' } : { status: 'changed', reason: 'the source lines differ from the reported digest' };
}

/** Highest line number a report may name (no transcript has more lines than this). */
const MAX_LINE = 2 ** 32;

/**
 * One result as printed: its status and number, the finding code only when it is one of ours,
 * the file name escaped (the report is someone else's file: a name with a newline or an
 * escape sequence must not forge a "match" row), and our own reason.
 */
export function formatVerifyResult(r: VerifyResult): string {
  const code = (FINDING_CODES as readonly string[]).includes(r.code) ? r.code : '(unknown code)';
  return `${r.status.padEnd(12)} #${r.index + 1} ${code} ${r.file === null ? '-' : printable(r.file)}: ${r.reason}`;
}

export function readReport(path: string): string {
  return readFileSync(path, 'utf8');
}
