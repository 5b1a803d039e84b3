import { useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AgentsResponse,
  CompareResponse,
  DiagnosticsResponse,
  EffortRatesResponse,
  FilesResponse,
  FilterQuery,
  FindingDetail,
  FindingsResponse,
  Folder,
  FoldersResponse,
  ForgetResponse,
  HealthResponse,
  IndexRunState,
  ModelRatesResponse,
  RedactionQuery,
  RegressionsResponse,
  SessionResponse,
  SummaryResponse,
  TimelineResponse,
  VersionEffortResponse,
  VersionModelResponse,
  VersionRatesResponse,
} from '../../../shared/api-schemas';
import { expandRates } from '../../../shared/sparse-rates';
import { effortRows, modelRows, timelineRows, versionRows } from '../lib/keyed-rows';
import { toQueryString } from '../lib/url-filters';
import { api } from './client';

/**
 * One hook per endpoint, each with its fetcher; keys include the filters so views cache apart.
 * Rate rows (versions, models, timeline) reach the page's tables and charts as KeyedRow; the sparse
 * answers (timeline, versions, version-models) are made whole first (shared/sparse-rates.ts).
 */

export const useHealth = () => useQuery({ queryKey: ['health'], queryFn: () => api.get<HealthResponse>('/api/health'), staleTime: Infinity });

/** The agents the folders hold (issue 34), Claude Code first; `folder` as in the filters. */
export const useAgents = (folder?: string) =>
  useQuery({ queryKey: ['agents', folder ?? null], queryFn: () => api.get<AgentsResponse>(`/api/agents${toQueryString({ folder })}`) });

export const useSummary = (f: FilterQuery) =>
  useQuery({ queryKey: ['summary', f], queryFn: () => api.get<SummaryResponse>(`/api/summary${toQueryString(f)}`) });

export const useTimeline = (f: FilterQuery, bucket: 'day' | 'week') =>
  useQuery({
    queryKey: ['timeline', f, bucket],
    queryFn: () => api.get<TimelineResponse>(`/api/timeline${toQueryString({ ...f, bucket })}`),
    select: (d) => ({ ...d, rows: timelineRows(expandRates(d)) }),
  });

export const useVersions = (f: FilterQuery) =>
  useQuery({
    queryKey: ['versions', f],
    queryFn: () => api.get<VersionRatesResponse>(`/api/versions${toQueryString(f)}`),
    select: (d) => ({ rows: versionRows(expandRates(d)) }),
  });

export const useModels = (f: FilterQuery) =>
  useQuery({
    queryKey: ['models', f],
    queryFn: () => api.get<ModelRatesResponse>(`/api/models${toQueryString(f)}`),
    select: (d) => ({ rows: modelRows(d.rows) }),
  });

export const useEfforts = (f: FilterQuery) =>
  useQuery({
    queryKey: ['efforts', f],
    queryFn: () => api.get<EffortRatesResponse>(`/api/efforts${toQueryString(f)}`),
    select: (d) => ({ rows: effortRows(d.rows) }),
  });

export const useVersionEfforts = (f: FilterQuery) =>
  useQuery({ queryKey: ['version-efforts', f], queryFn: () => api.get<VersionEffortResponse>(`/api/version-efforts${toQueryString(f)}`) });

export const useVersionModels = (f: FilterQuery) =>
  useQuery({
    queryKey: ['version-models', f],
    queryFn: () => api.get<VersionModelResponse>(`/api/version-models${toQueryString(f)}`),
    select: (d) => ({ ...d, rows: expandRates(d) }),
  });

export const useFindings = (f: FilterQuery, sort: 'day_asc' | 'day_desc') =>
  useInfiniteQuery({
    queryKey: ['findings', f, sort],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => api.get<FindingsResponse>(`/api/findings${toQueryString({ ...f, sort, limit: 200, cursor: pageParam })}`),
    getNextPageParam: (last) => last.next_cursor,
  });

/** One finding (GET /api/findings/:id) with its turn strip; not cached for long, since the strip re-reads the file. */
export const useFindingDetail = (id: string, context: number) =>
  useQuery({
    queryKey: ['finding', id, context],
    staleTime: 0,
    queryFn: () => api.get<FindingDetail>(`/api/findings/${encodeURIComponent(id)}${toQueryString({ context })}`),
  });

export const useSession = (hash: string) =>
  useQuery({ queryKey: ['session', hash], queryFn: () => api.get<SessionResponse>(`/api/sessions/${encodeURIComponent(hash)}`) });

export const useRegressions = (f: FilterQuery) =>
  useQuery({ queryKey: ['regressions', f], queryFn: () => api.get<RegressionsResponse>(`/api/regressions${toQueryString(f)}`) });

export const useCompare = (a: string, b: string, f: FilterQuery) =>
  useQuery({
    queryKey: ['compare', a, b, f],
    enabled: a !== '' && b !== '',
    queryFn: () =>
      api.get<CompareResponse>(
        `/api/compare${toQueryString({ a, b, model: f.model, folder: f.folder, sidechain: f.sidechain, code: f.code, agent: f.agent })}`,
      ),
  });

/** The evidence report's exact text, as it would be shared. */
export const useEvidenceText = (f: FilterQuery, redaction: RedactionQuery, format: 'md' | 'json', scope?: 'all') =>
  useQuery({
    queryKey: ['export', f, redaction, format, scope],
    queryFn: () => api.text(`/api/export${toQueryString({ ...f, ...redaction, format, scope })}`),
  });

export const useDiagnostics = () => useQuery({ queryKey: ['diagnostics'], queryFn: () => api.get<DiagnosticsResponse>('/api/diagnostics') });

export const useFileProblems = () => useQuery({ queryKey: ['files'], queryFn: () => api.get<FilesResponse>('/api/files') });

/** Files read in salvage mode around damaged lines (issue 29): counted, and listed so damage stays visible. */
export const useSalvagedFiles = () => useQuery({ queryKey: ['files', 'salvaged'], queryFn: () => api.get<FilesResponse>('/api/files?status=salvaged') });

/** Transcripts deleted on disk whose metadata the index keeps (issue 27). */
export const useGoneFiles = () => useQuery({ queryKey: ['files', 'gone'], queryFn: () => api.get<FilesResponse>('/api/files?status=gone') });

/** Forget one file (DELETE /api/files/:id) or every gone file (POST /api/forget). */
export function useForget() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: async (what: { fileId: number } | { gone: true }): Promise<ForgetResponse | null> => {
      if ('fileId' in what) {
        await api.delete(`/api/files/${what.fileId}`);
        return null;
      }
      return api.post<ForgetResponse>('/api/forget', { gone: true });
    },
    onSuccess: invalidate,
  });
}

export const useFolders = () => useQuery({ queryKey: ['folders'], queryFn: () => api.get<FoldersResponse>('/api/folders') });

export const useIndexRunState = () => useQuery({ queryKey: ['index-run'], queryFn: () => api.get<IndexRunState>('/api/index-runs/current') });

/** After anything that changes the index, every figure on the page is refetched. */
function useInvalidateAll() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'health' });
}

export function useAddFolder() {
  const invalidate = useInvalidateAll();
  return useMutation({ mutationFn: (body: { path: string; label?: string }) => api.post<Folder>('/api/folders', body), onSuccess: invalidate });
}

export function useRemoveFolder() {
  const invalidate = useInvalidateAll();
  // forget: drop the folder's history too; by default it is kept (its files as gone).
  return useMutation({
    mutationFn: ({ id, forget }: { id: number; forget: boolean }) => api.delete(`/api/folders/${id}${forget ? '?forget=true' : ''}`),
    onSuccess: invalidate,
  });
}

/** A folder's salvage setting (read the complete rows of damaged files); the next index run applies it. */
export function useSetFolderSalvage() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ id, salvage }: { id: number; salvage: boolean }) => api.patch(`/api/folders/${id}`, { salvage }),
    onSuccess: invalidate,
  });
}

export function useStartIndexRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (folderId?: number) => api.post<IndexRunState>('/api/index-runs', folderId === undefined ? {} : { folder_id: folderId }),
    onSuccess: (state) => client.setQueryData(['index-run'], state),
  });
}

export { useInvalidateAll };

/** The timeline once its bucket is known (null: wait), so a year-long index is fetched by week, not as 365 days. */
export const useTimelineIn = (f: FilterQuery, bucket: 'day' | 'week' | null) =>
  useQuery({
    queryKey: ['timeline', f, bucket],
    enabled: bucket !== null,
    queryFn: () => api.get<TimelineResponse>(`/api/timeline${toQueryString({ ...f, bucket: bucket ?? 'day' })}`),
    select: (d) => ({ ...d, rows: timelineRows(expandRates(d)) }),
  });

/**
 * One series per agent (issue 34): the timeline of each agent shown, fetched with its own `agent=`
 * (the API's rows do not split by agent), in the order given. Empty for fewer than two agents.
 */
export const useTimelinesByAgent = (f: FilterQuery, agents: readonly string[], bucket: 'day' | 'week' | null) =>
  useQueries({
    queries: (agents.length > 1 ? agents : []).map((agent) => ({
      queryKey: ['timeline', { ...f, agent }, bucket],
      enabled: bucket !== null,
      queryFn: () => api.get<TimelineResponse>(`/api/timeline${toQueryString({ ...f, agent, bucket: bucket ?? 'day' })}`),
      select: (d: TimelineResponse) => ({ ...d, agent, rows: timelineRows(expandRates(d)) }),
    })),
  });
