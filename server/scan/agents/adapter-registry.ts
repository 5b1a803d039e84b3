import type { AgentAdapter, DocumentAdapter, RowsAdapter } from './adapter';
import { claudeCodeAdapter } from './claude-code';
import { codexAdapter } from './codex';
import { copilotCliAdapter } from './copilot-cli';
import { geminiCliDocumentAdapter, geminiCliRowsAdapter } from './gemini-cli';
import { openCodeAdapter } from './opencode';
import { piAdapter } from './pi';

/**
 * Every adapter, tried in this order on a file's first row (JSONL) or its document (whole-file
 * JSON); the first that claims the file reads it. Claude Code first: it declines every shape
 * format-sniff.ts names as another tool's.
 */
export const ADAPTERS: readonly AgentAdapter[] = [
  claudeCodeAdapter,
  codexAdapter,
  openCodeAdapter,
  copilotCliAdapter,
  piAdapter,
  geminiCliRowsAdapter,
  geminiCliDocumentAdapter,
];

export const ROWS_ADAPTERS: readonly RowsAdapter[] = ADAPTERS.filter((a): a is RowsAdapter => a.encoding === 'rows');
export const DOCUMENT_ADAPTERS: readonly DocumentAdapter[] = ADAPTERS.filter((a): a is DocumentAdapter => a.encoding === 'document');
