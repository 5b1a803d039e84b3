import { useSyncExternalStore } from 'react';
import type { LiveUpdate } from '../../../shared/live-update';

export type { LiveUpdate };

/** New findings seen live and not yet dismissed, for the quiet notice. */
let pending: Array<{ id: string; code: string }> = [];
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

export function useLiveFindings(): Array<{ id: string; code: string }> {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending,
    () => pending,
  );
}
