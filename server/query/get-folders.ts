import { AGENT_RETENTION } from '../../shared/agent-retention';
import { AGENTS, type Agent, isAgent } from '../../shared/agents';
import type { Folder } from '../../shared/api-schemas';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';

type FolderRow = Omit<Folder, 'gone_oldest_day' | 'cleanup_note' | 'removed_at' | 'retention'> & {
  gone_oldest_ms: number | null;
  oldest_on_disk_ms: number | null;
  removed_ms: number | null;
};

const DAY_MS = 86_400_000;
/** Claude Code's default cleanupPeriodDays, and how close to it a folder's oldest transcript must be for the page to explain it. */
export const CLEANUP_DEFAULT_DAYS = 30;
const CLEANUP_NOTE_AFTER_DAYS = 25;

/**
 * Whether the page explains an agent's deletion rule for a folder (issue 27; per agent, issue 38): the folder holds
 * files of an agent that deletes old sessions by default (Claude Code's cleanupPeriodDays, Gemini CLI's
 * general.sessionRetention: 30 days), its oldest file on disk was last written 25 days ago or more, and the index
 * holds gone files older than it, or none is gone yet and the folder looks like that agent's own (~/.claude/projects,
 * ~/.gemini/tmp).
 */
export function cleanupNote(
  row: { path: string; files_gone: number; gone_oldest_ms: number | null; oldest_on_disk_ms: number | null; agents: readonly Agent[] },
  now: number,
): boolean {
  if (!row.agents.some((a) => AGENT_RETENTION[a] !== null)) return false;
  if (row.oldest_on_disk_ms === null || now - row.oldest_on_disk_ms < CLEANUP_NOTE_AFTER_DAYS * DAY_MS) return false;
  if (row.files_gone > 0) return row.gone_oldest_ms !== null && row.gone_oldest_ms < row.oldest_on_disk_ms;
  return /[\\/](\.claude[\\/]projects|\.gemini[\\/]tmp)[\\/]?$/.test(row.path);
}

/** Each agent of a folder with its files and its own deletion rule, in AGENTS order. */
function retentionOf(counts: ReadonlyMap<Agent, number>): Folder['retention'] {
  return AGENTS.filter((a) => counts.has(a)).map((agent) => {
    const rule = AGENT_RETENTION[agent];
    return { agent, files: counts.get(agent)!, setting: rule?.setting ?? null, default_days: rule?.default_days ?? null, since: rule?.since ?? null };
  });
}

function prepare(db: Db) {
  return db.prepare<[], FolderRow>(`
    SELECT r.id, r.label, r.path, r.added_at, r.last_scan_at AS last_indexed_at, r.salvage = 1 AS salvage, r.removed_ms,
           count(f.id) AS files, coalesce(sum(f.status = 'failed'), 0) AS files_failed,
           coalesce(sum(f.status = 'in_progress'), 0) AS files_in_progress,
           count(f.gone_ms) AS files_gone,
           min(iif(f.gone_ms IS NULL, NULL, f.first_row_ms)) AS gone_oldest_ms,
           min(iif(f.gone_ms IS NULL AND f.status = 'ok', f.mtime_ms, NULL)) AS oldest_on_disk_ms
    FROM roots r LEFT JOIN files f ON f.root_id = r.id
    GROUP BY r.id ORDER BY r.id`);
}

function prepareAgents(db: Db) {
  return db.prepare<[], { root_id: number; agent: string; files: number }>(
    'SELECT root_id, agent, count(*) AS files FROM files WHERE agent IS NOT NULL GROUP BY root_id, agent ORDER BY root_id, agent',
  );
}

function prepareExists(db: Db) {
  return db.prepare<[number], 1>('SELECT 1 FROM roots WHERE id = ?').pluck();
}

/** Whether a folder (the store's root) with this id was added. */
export function folderExists(db: Db, id: number): boolean {
  const st = prepared(db, prepareExists);
  return st.get(id) !== undefined;
}

/** The owner's folders (the store's roots), with their absolute paths (this is the one place a path is shown). */
export function getFolders(db: Db): Folder[] {
  const st = prepared(db, prepare);
  const now = Date.now();
  const agents = new Map<number, Map<Agent, number>>();
  for (const a of prepared(db, prepareAgents).all()) {
    if (!isAgent(a.agent)) continue;
    if (!agents.has(a.root_id)) agents.set(a.root_id, new Map());
    agents.get(a.root_id)!.set(a.agent, a.files);
  }
  return st.all().map(({ gone_oldest_ms, oldest_on_disk_ms, removed_ms, ...r }) => {
    const counts = agents.get(r.id) ?? new Map<Agent, number>();
    return {
      ...r,
      removed_at: removed_ms === null ? null : new Date(removed_ms).toISOString(),
      salvage: Boolean(r.salvage),
      gone_oldest_day: gone_oldest_ms === null ? null : new Date(gone_oldest_ms).toISOString().slice(0, 10),
      cleanup_note:
        removed_ms === null && cleanupNote({ path: r.path, files_gone: r.files_gone, gone_oldest_ms, oldest_on_disk_ms, agents: [...counts.keys()] }, now),
      retention: retentionOf(counts),
    };
  });
}
