import type { FindingDetail, FindingLink, StripRow } from '../../shared/api-schemas';
import { isDatabaseEntry } from '../scan/opencode-db';
import { pathUnderRoot, readRowWindow } from '../scan/read-row-window';
import type { Db } from '../store/database';
import { findingId, parseFindingId } from '../store/finding-id';
import { prepared } from '../store/prepared';
import { type FindingRow, toFinding } from './get-findings';

export const DEFAULT_CONTEXT = 15;
export const MAX_CONTEXT = 100;

interface DetailRow extends FindingRow {
  file_id: number;
  root_path: string;
  session_hash: string | null;
  gone_ms: number | null;
}

const COLUMNS = `fi.id, fi.code, f.root_id, r.label AS root, f.rel_path AS file, fi.first_line, fi.last_line, fi.source_lines,
  fi.evidence_sha256, c.day, c.version, c.model, c.agent, fi.block_types, fi.signed_thinking, c.sidechain, fi.counted, fi.details,
  fi.file_id, r.path AS root_path, lower(hex(f.session_hash)) AS session_hash, f.gone_ms`;
const FROM = 'findings fi JOIN files f ON f.id = fi.file_id JOIN roots r ON r.id = f.root_id JOIN cells c ON c.id = fi.cell_id';

function prepare(db: Db) {
  return {
    byFirstLine: db.prepare<{ first_line: number }, DetailRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE fi.first_line = @first_line`),
    sameFile: db.prepare<{ file_id: number; id: number }, DetailRow & { same_message: number }>(`
      SELECT ${COLUMNS}, fi.message_hash = (SELECT message_hash FROM findings WHERE id = @id) AS same_message
      FROM ${FROM} WHERE fi.file_id = @file_id AND fi.id <> @id ORDER BY fi.first_line, fi.code`),
    sameSession: db.prepare<{ session_hash: string; id: number }, DetailRow>(`
      SELECT ${COLUMNS} FROM ${FROM} WHERE f.session_hash = unhex(@session_hash) AND fi.id <> @id ORDER BY f.rel_path, fi.first_line, fi.code LIMIT 500`),
  };
}

function statements(db: Db) {
  const st = prepared(db, prepare);
  return st;
}

export const linkOf = (r: FindingRow): FindingLink => ({
  id: findingId(r.root_id, r.file, r.code, r.first_line),
  code: r.code,
  lines: [r.first_line, r.last_line],
  file: r.file,
});

/** The finding a stable id names, or null. */
export function findById(db: Db, id: string): DetailRow | null {
  const parsed = parseFindingId(id);
  if (!parsed) return null;
  return (
    statements(db)
      .byFirstLine.all({ first_line: parsed.firstLine })
      .find((r) => findingId(r.root_id, r.file, r.code, r.first_line) === id) ?? null
  );
}

/** A POSIX shell word: single-quoted, with each ' written as '\''. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * Findings that belong together with `f` in its file, both ways: the same assistant message
 * (a missing block and the retry nudge after it), shared source lines (each {} call of a
 * repeated run and the run), and a retry nudge with the "retry also failed" row its retry led to.
 */
function chainOf(db: Db, f: DetailRow): FindingLink[] {
  const others = statements(db).sameFile.all({ file_id: f.file_id, id: f.id });
  const mine = new Set(JSON.parse(f.source_lines) as number[]);
  const nudges = [f, ...others].filter((o) => o.code === 'malformed_retry_injected').map((o) => o.first_line);
  const nudgeBefore = (line: number) => nudges.filter((n) => n < line).reduce((a, b) => Math.max(a, b), -1);
  return others
    .filter((o) => {
      if (o.same_message === 1) return true;
      if ((JSON.parse(o.source_lines) as number[]).some((l) => mine.has(l))) return true;
      if (f.code === 'malformed_retry_injected' && o.code === 'malformed_retry_exhausted') return nudgeBefore(o.first_line) === f.first_line;
      if (f.code === 'malformed_retry_exhausted' && o.code === 'malformed_retry_injected') return nudgeBefore(f.first_line) === o.first_line;
      return false;
    })
    .map(linkOf);
}

/** Rows within `context` of any of the finding's source lines (a long run does not pull in everything between). */
function near(sourceLines: number[], context: number) {
  return (line: number) => sourceLines.some((s) => Math.abs(s - line) <= context);
}

/** One finding (as in the list) with its turn strip (re-read from the owner's file), chain and session. */
export function getFindingDetail(db: Db, id: string, context = DEFAULT_CONTEXT): FindingDetail | null {
  const f = findById(db, id);
  if (!f) return null;
  const ctx = Math.max(0, Math.min(MAX_CONTEXT, context));
  const sourceLines = JSON.parse(f.source_lines) as number[];
  const from = Math.max(1, f.first_line - ctx);
  let to = f.last_line + ctx;
  // A gone transcript (issue 27) is not read: whatever may be at its path now was not indexed.
  const gone = f.gone_ms !== null;
  // A session of OpenCode's database (issue 38) is no file: its rows were read from a private copy at index time only.
  const session = isDatabaseEntry(f.file);
  const path = gone || session ? null : pathUnderRoot(f.root_path, f.file);
  const window = path ? readRowWindow(path, sourceLines, f.evidence_sha256, from, to) : ({ status: gone ? 'gone' : 'unreadable' } as const);
  if (window.status === 'ok') to = Math.min(to, window.line_count);
  const inFinding = new Set(sourceLines);
  const rows: StripRow[] =
    window.status === 'ok' ? window.rows.filter((r) => near(sourceLines, ctx)(r.line)).map((r) => ({ ...r, in_finding: inFinding.has(r.line) })) : [];
  const sameSession = f.session_hash ? statements(db).sameSession.all({ session_hash: f.session_hash, id: f.id }).map(linkOf) : [];
  return {
    ...toFinding(f),
    session_hash: f.session_hash,
    strip: {
      status: window.status,
      message:
        window.status === 'ok'
          ? `${rows.length} rows around lines ${f.first_line}–${f.last_line}`
          : window.status === 'changed'
            ? 'file changed since indexing: its lines no longer match the evidence digest, so no rows are shown (index again to refresh)'
            : window.status === 'gone'
              ? `the transcript was deleted on disk after ${new Date(f.gone_ms!).toISOString().slice(0, 10)}; the index keeps its metadata and evidence digest, not its rows`
              : session
                ? "a session of OpenCode's database: its rows are read from a copy while indexing and never kept, so none are shown (its lines are those `opencode export` prints for the session)"
                : 'the file cannot be read (moved, removed, or replaced by a link)',
      context: ctx,
      from,
      to,
      rows,
    },
    chain: chainOf(db, f),
    session: sameSession,
    local_command: gone || session ? null : `sed -n '${from},${to}p' ${shellQuote(`./${f.file}`)}`,
    gone_since: gone ? new Date(f.gone_ms!).toISOString() : null,
  };
}
