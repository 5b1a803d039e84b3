import type { Finding, FindingsResponse } from '../../shared/api-schemas';
import type { Db } from '../store/database';
import { findingId } from '../store/finding-id';
import { prepared } from '../store/prepared';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';

export interface FindingsPage {
  sort: 'day_asc' | 'day_desc';
  limit: number;
  cursor?: string;
}

export interface FindingRow {
  id: number;
  code: string;
  root_id: number;
  root: string;
  file: string;
  first_line: number;
  last_line: number;
  source_lines: string;
  evidence_sha256: string;
  day: string;
  version: string;
  model: string;
  /** The agent whose transcript holds the finding (migration 023: cells name the agent). */
  agent: string;
  block_types: string;
  signed_thinking: number;
  sidechain: number;
  counted: number;
  details: string;
}

type PageParams = FilterParams & { after_day: string | null; after_id: number | null; limit: number };

export const FINDING_SELECT = `
  SELECT fi.id, fi.code, f.root_id, r.label AS root, f.rel_path AS file, fi.first_line, fi.last_line, fi.source_lines,
         fi.evidence_sha256, c.day, c.version, c.model, c.agent, fi.block_types, fi.signed_thinking, c.sidechain, fi.counted, fi.details
  FROM findings fi JOIN files f ON f.id = fi.file_id JOIN roots r ON r.id = f.root_id JOIN cells c ON c.id = fi.cell_id
  WHERE ${cellFilterSql('f.root_id')} AND (@codes IS NULL OR fi.code IN (SELECT value FROM json_each(@codes)))`;

function prepare(db: Db) {
  return {
    // Keyset pagination on (day, id): stable while the index changes, no OFFSET scans.
    ascending: db.prepare<PageParams, FindingRow>(`${FINDING_SELECT}
      AND (@after_id IS NULL OR (c.day, fi.id) > (@after_day, @after_id))
      ORDER BY c.day ASC, fi.id ASC LIMIT @limit`),
    descending: db.prepare<PageParams, FindingRow>(`${FINDING_SELECT}
      AND (@after_id IS NULL OR (c.day, fi.id) < (@after_day, @after_id))
      ORDER BY c.day DESC, fi.id DESC LIMIT @limit`),
    total: db.prepare<FilterParams, { n: number }>(`
      SELECT count(*) AS n FROM findings fi JOIN files f ON f.id = fi.file_id JOIN cells c ON c.id = fi.cell_id
      WHERE ${cellFilterSql('f.root_id')} AND (@codes IS NULL OR fi.code IN (SELECT value FROM json_each(@codes)))`),
  };
}

export function encodeCursor(day: string, id: number): string {
  return Buffer.from(JSON.stringify([day, id])).toString('base64url');
}

export class BadCursorError extends Error {}

function decodeCursor(cursor: string): [string, number] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && typeof value[0] === 'string' && Number.isInteger(value[1])) return [value[0], value[1] as number];
  } catch {
    // fall through
  }
  throw new BadCursorError('the cursor is not one this server gave out');
}

/** A stored finding as the API shows it: its stable id (never the row id), its folder. */
export function toFinding(r: FindingRow): Finding {
  return {
    id: findingId(r.root_id, r.file, r.code, r.first_line),
    code: r.code,
    folder_id: r.root_id,
    folder: r.root,
    file: r.file,
    lines: [r.first_line, r.last_line],
    source_lines: JSON.parse(r.source_lines) as number[],
    evidence_sha256: r.evidence_sha256,
    day: r.day || null,
    version: r.version || null,
    model: r.model || null,
    agent: r.agent,
    block_types: JSON.parse(r.block_types) as string[],
    signed_thinking: r.signed_thinking === 1,
    sidechain: r.sidechain === 1,
    counted: r.counted === 1,
    details: JSON.parse(r.details) as Finding['details'],
  };
}

/** One page of findings (every copy, counted or not), sorted by day, with a cursor for the next. */
export function getFindings(db: Db, filters: RateFilters, page: FindingsPage): FindingsResponse {
  const st = prepared(db, prepare);
  const params = filterParams(filters);
  const [afterDay, afterId] = page.cursor ? decodeCursor(page.cursor) : [null, null];
  const statement = page.sort === 'day_asc' ? st.ascending : st.descending;
  const rows = statement.all({ ...params, after_day: afterDay, after_id: afterId, limit: page.limit + 1 });
  const more = rows.length > page.limit;
  const last = rows[page.limit - 1];
  return { rows: rows.slice(0, page.limit).map(toFinding), next_cursor: more && last ? encodeCursor(last.day, last.id) : null, total: st.total.get(params)!.n };
}
