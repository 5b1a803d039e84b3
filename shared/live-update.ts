/**
 * What the page is told after the folder watcher re-indexed changed files (the `live`
 * server-sent event of GET /api/index-runs/events): counts, codes and finding ids only.
 */
export interface LiveUpdate {
  files_changed: number;
  files_removed: number;
  findings_added: number;
  findings_removed: number;
  /** Findings not in the index before (same file, code, lines and digest): their id (as GET /api/findings/:id takes it) and code. */
  new_findings: Array<{ id: string; code: string }>;
  at: string;
}
