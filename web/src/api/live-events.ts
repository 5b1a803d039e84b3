import { useSyncExternalStore } from 'react';

/** A 'live' server-sent event: the folder watcher re-indexed changed files (counts, codes, finding ids only). */
export interface LiveUpdate {
  files_changed: number;
  files_removed: number;
  findings_added: number;
  findings_removed: number;
  new_findings: Array<{ id: number; code: string }>;
  at: string;
}

/** New findings seen live and not yet dismissed, for the quiet notice. */
let pending: Array<{ id: number; code: string }> = [];
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

export function noteLiveUpdate(update: LiveUpdate): void {
  if (update.new_findings.length === 0) return;
  pending = [...pending, ...update.new_findings].slice(-50);
  notify();
}

export function dismissLiveFindings(): void {
  pending = [];
  notify();
}

export function useLiveFindings(): Array<{ id: number; code: string }> {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending,
    () => pending,
  );
}
