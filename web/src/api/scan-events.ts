import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ScanState } from '../../../shared/api-schemas';
import { type LiveUpdate, noteLiveUpdate } from './live-events';

/**
 * Follows /api/scans/events (server-sent events) for the whole app: every progress event
 * updates the scan state; the end of a scan refreshes every figure on the page.
 */
export function useScanEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    const source = new EventSource('/api/scans/events');
    let previous: ScanState['state'] | null = null;
    source.addEventListener('progress', (event) => {
      const state = JSON.parse((event as MessageEvent<string>).data) as ScanState;
      client.setQueryData(['scan'], state);
      if (previous === 'running' && state.state !== 'running') {
        void client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'health' && q.queryKey[0] !== 'scan' });
      }
      previous = state.state;
    });
    // The folder watcher re-indexed changed files: refresh the figures, and note new findings for the notice.
    source.addEventListener('live', (event) => {
      noteLiveUpdate(JSON.parse((event as MessageEvent<string>).data) as LiveUpdate);
      void client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'health' && q.queryKey[0] !== 'scan' });
    });
    return () => source.close();
  }, [client]);
}
