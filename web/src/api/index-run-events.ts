import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { IndexRunState } from '../../../shared/api-schemas';
import { type LiveUpdate, noteLiveUpdate } from './live-events';

/**
 * Follows /api/index-runs/events (server-sent events) for the whole app: every progress event
 * updates the index run's state; the end of an index run refreshes every figure on the page.
 */
export function useIndexRunEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    const source = new EventSource('/api/index-runs/events');
    let previous: IndexRunState['state'] | null = null;
    source.addEventListener('progress', (event) => {
      const state = JSON.parse((event as MessageEvent<string>).data) as IndexRunState;
      client.setQueryData(['index-run'], state);
      if (previous === 'running' && state.state !== 'running') {
        void client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'health' && q.queryKey[0] !== 'index-run' });
      }
      previous = state.state;
    });
    // The folder watcher re-indexed changed files: refresh the figures, and note new findings for the notice.
    source.addEventListener('live', (event) => {
      noteLiveUpdate(JSON.parse((event as MessageEvent<string>).data) as LiveUpdate);
      void client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'health' && q.queryKey[0] !== 'index-run' });
    });
    return () => source.close();
  }, [client]);
}
