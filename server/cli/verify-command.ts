import { closeSync, readFileSync, realpathSync } from 'node:fs';
import { Compile } from 'typebox/compile';
import { EvidenceReport } from '../../shared/api-schemas';
import { FINDING_CODES } from '../../shared/finding-codes';
import { printable } from '../../shared/printable';
import { keepSessionName } from '../query/build-evidence-report';
import { parseVerificationBlock } from '../query/verification-block';
import { readStorageSession, storageSessionOf } from '../scan/agents/opencode-storage';
import { digestBytes, digestLines } from '../scan/evidence-digest';
import { LineStarts, readLines } from '../scan/read-lines';
import { openRegularFile } from '../scan/safe-open';
import { type WalkResult, walkDirectory } from '../scan/walk-inputs';
import type { Db } from '../store/database';
import { filePseudonym, pseudonymSalt } from '../store/pseudonym-salt';
import { BadReportError } from './bad-report-error';

export { BadReportError };

export type VerifyStatus = 'match' | 'changed' | 'missing' | 'unverifiable' | 'gone';

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
  const { files, findings } = readFindings(reportText);
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
  if (files === 'pseudonymize' || files === 'keep-session') {
    if (!db) throw new BadReportError('this report names files by pseudonym: give the --db that exported it');
    let salt: string;
    try {
      salt = pseudonymSalt(db);
    } catch (error) {
      // Opened read-only: a database that has no salt yet never exported a pseudonymized report.
      if ((error as { code?: string }).code !== 'SQLITE_READONLY') throw error;
      throw new BadReportError('this database never exported a pseudonymized report: give the --db that exported it');
    }
    const rename = files === 'pseudonymize' ? filePseudonym : keepSessionName;
    const byPseudonym = new Map([...byName].map(([name, path]) => [rename(salt, name), path]));
    resolve = (name) => byPseudonym.get(name);
  }
  const gone = goneFindings(db, files);
  const checked = new Map<string, Pick<VerifyResult, 'status' | 'reason'>>();
  return findings.map((f, index) => {
    const base = { index: f.number !== undefined ? f.number - 1 : index, code: f.code, file: f.file ?? null };
    if (f.bad) return { ...base, status: 'unverifiable' as const, reason: f.bad };
    if (!f.file || !f.source_lines || !f.evidence_sha256) {
      return { ...base, status: 'unverifiable' as const, reason: 'the report omits the file, its lines or its digest' };
    }
    if (f.source_lines.length === 0 || f.source_lines.some((l) => !Number.isSafeInteger(l) || l < 1 || l > MAX_LINE)) {
      return { ...base, status: 'unverifiable' as const, reason: 'the report lists no line, or a line number that cannot exist' };
    }
    if (!/^[0-9a-f]{64}$/.test(f.evidence_sha256)) return { ...base, status: 'unverifiable' as const, reason: 'the report digest is not a SHA-256' };
    const path = resolve(f.file);
    if (!path) {
      const since = gone.get(`${f.file}\u0000${f.evidence_sha256}`);
      if (since !== undefined)
        return { ...base, status: 'gone' as const, reason: `deleted on disk after ${since}; the index holds this finding with the same digest` };
      return { ...base, status: 'missing' as const, reason: 'no such file under the given folders' };
    }
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
  // A session of OpenCode's storage tree: its lines are those of the export rebuilt from its pieces.
  const storage = storageSessionOf(path);
  if (storage) {
    const read = readStorageSession(storage.root, storage.projectId, storage.sessionId);
    if (read.status !== 'ok') return { status: 'changed', reason: 'the session cannot be read as reported' };
    if (read.lineStarts.count < last) return { status: 'changed', reason: `the session now has fewer than ${last} lines` };
    try {
      digest = digestBytes(read.text, read.lineStarts, sourceLines);
    } catch {
      return { status: 'changed', reason: 'the source lines cannot be read as reported' };
    }
    return digest === expected ? { status: 'match', reason: 'same bytes' } : { status: 'changed', reason: 'the source lines differ from the reported digest' };
  }
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

interface ToVerify {
  /** The row's number in a Markdown report's verification block (absent for JSON: the finding's place). */
  number?: number;
  code: string;
  file?: string;
  source_lines?: number[];
  evidence_sha256?: string;
  /** A verification row that does not parse: why. */
  bad?: string;
}

/**
 * The findings a report asks to verify: a JSON report of format 1 or 2 (its `findings`), or a
 * Markdown report's verification block (what was pasted in a bug tracker).
 */
function readFindings(text: string): { files: EvidenceReport['redaction']['files']; findings: ToVerify[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    const block = parseVerificationBlock(text);
    if (!block) {
      throw new BadReportError(
        'the report is neither a JSON evidence report (format 1 or 2) nor a Markdown report with its verification block (~~~tcf-verify); export it again',
      );
    }
    return {
      files: block.files,
      findings: block.rows.map((r) => ('bad' in r ? { number: r.number, code: '', bad: r.bad } : { ...r })),
    };
  }
  if (!evidenceReportCheck().Check(parsed))
    throw new BadReportError('the report is not a JSON evidence report of format 1 or 2 (export it with --format json)');
  const report = parsed as EvidenceReport;
  return { files: report.redaction.files, findings: report.findings };
}

/**
 * The findings of transcripts deleted on disk that the index keeps (issue 27), by the report's name for their file and
 * their digest, to the day the index last saw the file: `verify` answers `gone` for such a finding, not `missing`.
 * Empty without a database, or with one older than migration 017.
 */
function goneFindings(db: Db | null, files: EvidenceReport['redaction']['files']): Map<string, string> {
  const out = new Map<string, string>();
  if (!db || files === 'omit') return out;
  let rows: Array<{ rel_path: string; evidence_sha256: string; gone_ms: number }>;
  try {
    rows = db
      .prepare<[], { rel_path: string; evidence_sha256: string; gone_ms: number }>(
        'SELECT f.rel_path, fi.evidence_sha256, f.gone_ms FROM findings fi JOIN files f ON f.id = fi.file_id WHERE f.gone_ms IS NOT NULL',
      )
      .all();
  } catch {
    return out;
  }
  if (rows.length === 0) return out;
  let rename = (name: string) => name;
  if (files !== 'keep') {
    const salt = pseudonymSalt(db);
    rename = files === 'pseudonymize' ? (name) => filePseudonym(salt, name) : (name) => keepSessionName(salt, name);
  }
  for (const r of rows) out.set(`${rename(r.rel_path)}\u0000${r.evidence_sha256}`, new Date(r.gone_ms).toISOString().slice(0, 10));
  return out;
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
