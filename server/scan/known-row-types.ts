/**
 * Row types Claude Code is known to write (FORMAT.md): the transcript model counts others per version (never a
 * failure), and the turn strip around a finding shows others as `other`.
 */
export const KNOWN_ROW_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'permission-mode',
  'last-prompt',
  'ai-title',
  'pr-link',
  'mode',
  'atis-latch',
  'cost-state',
  'agent-setting',
  // FORMAT.md §2 and §9: seen in real files 2.1.72-2.1.237
  'file-history-delta',
  'bridge-session',
  'worktree-state',
  'agent-name',
  'agent-color',
  'custom-title',
  'relocated',
  'frame-link',
]);
