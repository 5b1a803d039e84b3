import type { SessionResponse } from '../../shared/api-schemas';
import { pathUnderRoot, readAllRowMetadata } from '../scan/read-row-window';
import type { RowMeta } from '../scan/row-metadata';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { linkOf } from './get-finding-detail';
import type { FindingRow } from './get-findings';

interface FileRow {
  id: number;
  root_id: number;
  root_path: string;
  file: string;
  sidechain: number;
  /** Migration 023: the agent whose format the file is in (files read, status ok, always have one). */
  agent: string | null;
  assistant_messages: number;
  /** UTC milliseconds (migration 015). */
  first_row_ms: number | null;
  /** first_row_ms + row_span_ms. */
  last_row_ms: number | null;
}

function prepare(db: Db) {
  return {
    // The session hash is stored as its 8 bytes (migration 015); the route accepts only 16 lowercase hex characters.
    files: db.prepare<{ session_hash: string }, FileRow>(`
      SELECT f.id, f.root_id, r.path AS root_path, f.rel_path AS file, f.sidechain, f.agent, f.assistant_messages, f.first_row_ms,
             f.first_row_ms + f.row_span_ms AS last_row_ms
      FROM files f JOIN roots r ON r.id = f.root_id
      WHERE f.session_hash = unhex(@session_hash) AND f.status = 'ok' ORDER BY f.sidechain, f.first_row_ms IS NULL, f.first_row_ms, f.rel_path`),
    messageHashes: db
      .prepare<{ file_id: number }, { message_hash: bigint }>(`SELECT message_hash FROM messages WHERE file_id = @file_id AND synthetic = 0`)
      .safeIntegers(),
    findings: db.prepare<{ file_id: number }, FindingRow>(`
      SELECT fi.id, fi.code, f.root_id, '' AS root, f.rel_path AS file, fi.first_line, fi.last_line, fi.source_lines, fi.evidence_sha256,
             '' AS day, '' AS version, '' AS model, '' AS agent, fi.block_types, fi.signed_thinking, 0 AS sidechain, fi.counted, fi.details
      FROM findings fi JOIN files f ON f.id = fi.file_id WHERE fi.file_id = @file_id ORDER BY fi.first_line, fi.code`),
  };
}

const MARKS: Partial<Record<string, SessionResponse['rows'][number]['marks'][number]['kind']>> = {
  compact_boundary: 'compaction',
  microcompact_boundary: 'compaction',
  interrupt: 'interrupt',
  api_error: 'api_error',
  retry_exhausted: 'api_error',
  retry_nudge: 'retry_nudge',
};

function countsOf(rows: RowMeta[]) {
  let calls = 0;
  let errors = 0;
  let compactions = 0;
  const marks: SessionResponse['rows'][number]['marks'] = [];
  for (const r of rows) {
    calls += r.tool_calls.length;
    if (r.synthetic === 'compact_boundary' || r.synthetic === 'microcompact_boundary') compactions++;
    if (r.is_error) errors++;
    const kind = r.synthetic ? MARKS[r.synthetic] : undefined;
    if (kind) marks.push({ line: r.line, kind });
    else if (r.is_error) marks.push({ line: r.line, kind: 'error' });
  }
  return { calls, errors, compactions, marks };
}

const ms = (t: number | null) => t ?? Number.NaN;

/**
 * A session (files sharing one session hash: the main transcript, its subagents, and copies of
 * either) on a time line: per file, counts of turns, calls, errors and compactions from a metadata-only re-read,
 * the marks where those happened, and the session's findings.
 */
export function getSession(db: Db, sessionHash: string): SessionResponse | null {
  const st = prepared(db, prepare);
  const files = st.files.all({ session_hash: sessionHash });
  if (files.length === 0) return null;
  // A file whose every model message is in a file listed before it is a copy (Claude Code's
  // transcript copied or saved twice): listed, but counted once.
  const seen = new Set<bigint>();
  const turnsSeen = new Set<bigint>();
  const copies = new Set<number>();
  for (const f of files) {
    const hashes = st.messageHashes.all({ file_id: f.id }).map((m) => m.message_hash);
    for (const h of hashes) turnsSeen.add(h);
    if (hashes.length > 0 && hashes.every((h) => seen.has(h))) copies.add(f.id);
    else for (const h of hashes) seen.add(h);
  }
  const out: SessionResponse['rows'] = files.map((f) => {
    const path = pathUnderRoot(f.root_path, f.file);
    const rows = path ? readAllRowMetadata(path) : null;
    const counts = rows ? countsOf(rows) : { calls: 0, errors: 0, compactions: 0, marks: [] };
    const start = ms(f.first_row_ms);
    const end = ms(f.last_row_ms);
    return {
      file: f.file,
      sidechain: f.sidechain === 1,
      agent: f.agent,
      role: copies.has(f.id) ? 'copy' : f.sidechain === 1 ? 'subagent' : 'main',
      status: rows ? 'ok' : 'unreadable',
      rows: rows?.length ?? 0,
      turns: f.assistant_messages,
      ...counts,
      duration_seconds: Number.isFinite(start) && Number.isFinite(end) ? Math.round((end - start) / 1000) : null,
      findings: st.findings.all({ file_id: f.id }).map(linkOf),
    };
  });
  const days = files.flatMap((f) => [f.first_row_ms, f.last_row_ms]).flatMap((t) => (t === null ? [] : [new Date(t).toISOString().slice(0, 10)]));
  days.sort();
  const total = (k: 'calls' | 'errors' | 'compactions') => out.reduce((a, f) => a + (f.role === 'copy' ? 0 : f[k]), 0);
  return {
    session_hash: sessionHash,
    first_day: days[0] ?? null,
    last_day: days[days.length - 1] ?? null,
    rows: out,
    totals: {
      turns: turnsSeen.size,
      calls: total('calls'),
      errors: total('errors'),
      compactions: total('compactions'),
      findings: out.reduce((a, f) => a + f.findings.length, 0),
    },
  };
}
