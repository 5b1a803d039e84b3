import { safeBlockType, safeEffort, safeModelId, safeTimestamp, safeVersion, utcDay } from '../../shared/metadata-patterns';
import {
  apiErrorKindOf,
  errorKindOf,
  INTERRUPT_PREFIXES,
  isValidationRefusal,
  missingParameterOf,
  RETRY_EXHAUSTED,
  RETRY_NUDGES,
  USER_REJECTED,
} from './harness-markers';
import { jsonStop } from './json-stop';
import { KNOWN_ROW_TYPES } from './known-row-types';
import { findLeakedInvoke } from './leaked-invoke';
import type { ContentBlock, TranscriptObserver } from './observers';
import {
  type AssistantMessage,
  emptyVersionDiagnostics,
  type HarnessNudge,
  type SalvagedLine,
  type ToolResultFact,
  type ToolUseFact,
  type TranscriptFile,
  type VersionDiagnostics,
} from './transcript-model';

/** System row subtypes Claude Code is known to write (FORMAT.md §2, §7, §10); others are counted per version. */
const KNOWN_SYSTEM_SUBTYPES = new Set([
  'stop_hook_summary',
  'turn_duration',
  'away_summary',
  'local_command',
  'api_error',
  'compact_boundary',
  'microcompact_boundary',
  'bridge_status',
  'scheduled_task_fire',
  'informational',
  'model_refusal_fallback',
  'init',
  'status',
  'api_retry',
]);
const KNOWN_BLOCK_TYPES = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'image',
  'document',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'tool_reference',
  // FORMAT.md §5 and §7: the advisor server tool's result (2.1.227+) and the model-fallback block (2.1.217)
  'advisor_tool_result',
  'fallback',
]);
const TYPE_NAME = /^[a-z][a-z0-9_-]{0,39}$/;
const typeName = (t: unknown) => (typeof t === 'string' && TYPE_NAME.test(t) ? t : 'other');

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** Tool names Claude Code ships; any other name is reported as `mcp` (an `mcp__` prefix) or `other`. */
const BUILT_IN_TOOLS = new Set([
  'Agent',
  'AskUserQuestion',
  'Bash',
  'BashOutput',
  'Edit',
  'EnterPlanMode',
  'EnterWorktree',
  'ExitPlanMode',
  'ExitWorktree',
  'Glob',
  'Grep',
  'KillBash',
  'KillShell',
  'LS',
  'ListAgents',
  'ListMcpResourcesTool',
  'LSP',
  'Monitor',
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'Read',
  'ReadMcpResourceTool',
  'SendMessage',
  'Skill',
  'SlashCommand',
  'Task',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskOutput',
  'TaskStop',
  'TaskUpdate',
  'TodoRead',
  'TodoWrite',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'Write',
]);

/** What may be said about a tool's name: the name itself when Claude Code ships it, else `mcp` or `other`. */
export function toolClass(name: string): string {
  if (BUILT_IN_TOOLS.has(name)) return name;
  return name.startsWith('mcp__') ? 'mcp' : 'other';
}

/**
 * `len` of an `__unparsedToolInput` (a non-negative safe integer, else null), and of its `raw`
 * string only its length and where it stops parsing (offset and the token kind expected there):
 * `raw` itself is payload and never leaves this function.
 */
function unparsedOf(input: Json): ToolUseFact['unparsed'] {
  if (!Object.hasOwn(input, '__unparsedToolInput')) return null;
  const u = input.__unparsedToolInput;
  const len = isObject(u) && Object.hasOwn(u, 'len') ? u.len : undefined;
  const raw = isObject(u) && Object.hasOwn(u, 'raw') ? u.raw : undefined;
  return {
    len: typeof len === 'number' && Number.isSafeInteger(len) && len >= 0 ? len : null,
    rawChars: typeof raw === 'string' ? raw.length : null,
    stop: typeof raw === 'string' ? jsonStop(raw) : null,
  };
}

/** `usage.output_tokens` when it is a non-negative safe integer. */
function outputTokensOf(message: Json): number | null {
  const usage = message.usage;
  const n = isObject(usage) ? usage.output_tokens : undefined;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** Entrypoints Claude Code records; any other recorded value is reported as `other`. */
const ENTRYPOINTS = new Set([
  'cli',
  'sdk-ts',
  'sdk-py',
  'sdk-cli',
  'claude-desktop',
  'claude-vscode',
  'claude-code-github-action',
  'remote',
  'mcp',
  'local-agent',
]);

/** `entrypoint` as recorded (`cli`, `sdk-ts`, `claude-desktop`, …) from a fixed list, `other` for any other string, else null. */
function safeEntrypoint(value: unknown): string | null {
  return typeof value === 'string' ? (ENTRYPOINTS.has(value) ? value : 'other') : null;
}

function isInterrupt(text: string): boolean {
  return INTERRUPT_PREFIXES.some((p) => text.startsWith(p));
}

/** A tool result's text: its string content, or its first text block (detectors that read a result's text use it too). */
export function firstText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    for (const item of content) if (isObject(item) && item.type === 'text' && typeof item.text === 'string') return item.text;
  }
  return null;
}

/** Result of adding one row: fine, or the row breaks what the detectors rely on. */
export type RowVerdict = 'ok' | 'invalid_structure';

/**
 * Folds rows into the transcript model. Only `assistant` and `user` rows matter to the
 * detectors; their shape is checked strictly (fail closed). Every other row type,
 * known or not, is accepted and skipped. Each accepted row is then shown to the observers
 * (the detectors' own facts, see observers.ts), in the order given.
 */
export class TranscriptBuilder {
  private readonly onAssistant: TranscriptObserver[];
  private readonly onUser: TranscriptObserver[];
  private readonly onOther: TranscriptObserver[];

  /** Rows a Claude Code reader knows (user, assistant, system, known types): a file with none is `unknown_format`. */
  recognisedRows = 0;

  constructor(
    observers: readonly TranscriptObserver[] = [],
    /** Row types also known here (a stream-json capture's `result`). */
    private readonly alsoKnown: ReadonlySet<string> = new Set(),
  ) {
    this.onAssistant = observers.filter((o) => o.assistant);
    this.onUser = observers.filter((o) => o.user);
    this.onOther = observers.filter((o) => o.other);
  }

  private readonly byId = new Map<string, AssistantMessage>();
  private readonly messages: AssistantMessage[] = [];
  private readonly toolResults: ToolResultFact[] = [];
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  private sessionId: string | null = null;
  private sidechain: boolean | null = null;
  private readonly nudges: HarnessNudge[] = [];
  private readonly interrupts: number[] = [];
  private readonly prompts: number[] = [];
  private readonly sidechainUserLines: number[] = [];
  private readonly diagnostics = new Map<string, VersionDiagnostics>();
  private readonly compactBoundaries: number[] = [];
  /** The last effort an assistant row recorded (a message without its own takes it). */
  private effort: string | null = null;

  private diagnosticsFor(version: unknown): VersionDiagnostics {
    const v = safeVersion(version);
    const key = v ?? '';
    let d = this.diagnostics.get(key);
    if (!d) {
      d = emptyVersionDiagnostics(v);
      this.diagnostics.set(key, d);
    }
    return d;
  }

  private countBlockType(version: unknown, type: string): void {
    if (KNOWN_BLOCK_TYPES.has(type)) return;
    const d = this.diagnosticsFor(version);
    const name = typeName(type);
    d.unknownBlockTypes[name] = (d.unknownBlockTypes[name] ?? 0) + 1;
  }

  addRow(row: unknown, line: number): RowVerdict {
    if (!isObject(row)) return 'invalid_structure';
    const { type, timestamp } = row;
    // Only a pattern-checked, canonical timestamp leaves the scanner (never the raw text).
    const at = safeTimestamp(timestamp);
    if (at !== null) {
      this.firstTimestamp ??= at;
      this.lastTimestamp = at;
    }
    if (this.sessionId === null && typeof row.sessionId === 'string') this.sessionId = row.sessionId;
    if (this.sidechain === null && typeof row.isSidechain === 'boolean') this.sidechain = row.isSidechain;
    // A row with no type that carries a message would be a model or user message read as nothing (issue 37).
    if (type === undefined && Object.hasOwn(row, 'message')) return 'invalid_structure';
    if (type === 'assistant' || type === 'user' || type === 'system' || KNOWN_ROW_TYPES.has(type as string) || this.alsoKnown.has(type as string))
      this.recognisedRows++;
    if (type === 'assistant') return this.addAssistant(row, line);
    if (type === 'user') return this.addUser(row, line);
    if (type === 'system') {
      const subtype = row.subtype;
      if (subtype === 'compact_boundary') this.compactBoundaries.push(line);
      else if (subtype !== undefined && subtype !== null && !KNOWN_SYSTEM_SUBTYPES.has(subtype as string)) {
        const d = this.diagnosticsFor(row.version);
        const name = typeName(subtype);
        d.unknownSystemSubtypes[name] = (d.unknownSystemSubtypes[name] ?? 0) + 1;
      }
    } else if (!KNOWN_ROW_TYPES.has(type as string) && !this.alsoKnown.has(type as string)) {
      const d = this.diagnosticsFor(row.version);
      const name = typeName(type);
      d.unknownRowTypes[name] = (d.unknownRowTypes[name] ?? 0) + 1;
    }
    for (const o of this.onOther) o.other!(row, line);
    return 'ok';
  }

  build(lineCount: number, endsWithNewline: boolean, salvaged: SalvagedLine[] = []): TranscriptFile {
    return {
      messages: this.messages,
      toolResults: this.toolResults,
      lineCount,
      endsWithNewline,
      firstTimestamp: this.firstTimestamp,
      lastTimestamp: this.lastTimestamp,
      sessionId: this.sessionId,
      sidechain: this.sidechain === true,
      nudges: this.nudges,
      interrupts: this.interrupts,
      prompts: this.prompts,
      sidechainUserLines: this.sidechainUserLines,
      diagnostics: [...this.diagnostics.values()],
      compactBoundaries: this.compactBoundaries,
      salvaged,
    };
  }

  private addAssistant(row: Json, line: number): RowVerdict {
    const message = row.message;
    if (!isObject(message)) return 'invalid_structure';
    const id = message.id;
    const content = message.content;
    const stop = message.stop_reason;
    if (typeof id !== 'string' || id.length === 0 || !Array.isArray(content)) return 'invalid_structure';
    if (stop !== undefined && stop !== null && typeof stop !== 'string') return 'invalid_structure';

    let group = this.byId.get(id);
    if (group === undefined) {
      group = {
        index: this.messages.length,
        messageId: id,
        lines: [],
        stopReason: null,
        blockTypes: [],
        toolUses: [],
        signedThinking: false,
        model: safeModelId(message.model),
        synthetic: message.model === '<synthetic>' || row.isApiErrorMessage === true,
        day: utcDay(row.timestamp),
        version: safeVersion(row.version),
        sidechain: row.isSidechain === true,
        leak: null,
        retryExhausted: false,
        damaged: false,
        outputTokens: null,
        entrypoint: safeEntrypoint(row.entrypoint),
        effort: null,
        abortedMidStream: false,
        apiErrorKind: null,
      };
      this.byId.set(id, group);
      this.messages.push(group);
    }
    group.lines.push(line);
    if (typeof stop === 'string') group.stopReason = stop;
    const tokens = outputTokensOf(message);
    if (tokens !== null) group.outputTokens = tokens;
    if (row.isApiErrorMessage === true) group.synthetic = true;
    if (row.isAbortedMidStream === true) group.abortedMidStream = true;
    const effort = safeEffort(row.effort);
    if (effort !== null) this.effort = effort;
    group.effort ??= this.effort;

    const harness = group.synthetic || row.isApiErrorMessage === true;
    let hasText = false;
    let hasToolUse = false;
    for (const block of content) {
      if (!isObject(block) || typeof block.type !== 'string') return 'invalid_structure';
      if (block.type === 'text') hasText = true;
      else if (block.type === 'tool_use') hasToolUse = true;
      else this.countBlockType(row.version, block.type);
      const blockType = safeBlockType(block.type);
      if (!group.blockTypes.includes(blockType)) group.blockTypes.push(blockType);
      if (block.type === 'tool_use') {
        if (typeof block.id !== 'string' || !isObject(block.input)) return 'invalid_structure';
        group.toolUses.push({
          id: block.id,
          emptyInput: isEmptyObject(block.input),
          line,
          name: typeof block.name === 'string' ? block.name : '',
          unparsed: unparsedOf(block.input),
        });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        if (harness) {
          if (block.text === RETRY_EXHAUSTED) group.retryExhausted = true;
          group.apiErrorKind ??= apiErrorKindOf(block.text);
        } else if (group.leak === null) {
          group.leak = findLeakedInvoke(block.text);
        }
      } else if (block.type === 'thinking') {
        if (typeof block.signature === 'string' && block.signature.length > 0) group.signedThinking = true;
      }
    }
    if (hasText || hasToolUse) {
      const d = this.diagnosticsFor(row.version);
      if (hasText) d.textRows++;
      if (hasToolUse) d.toolUseRows++;
    }
    for (const o of this.onAssistant) o.assistant!(content as ContentBlock[], group, row, line);
    return 'ok';
  }

  private addUser(row: Json, line: number): RowVerdict {
    const message = row.message;
    if (!isObject(message)) return 'invalid_structure';
    const content = message.content;
    const sidechain = row.isSidechain === true;
    if (typeof content === 'string') {
      if (row.isMeta === true) {
        const wording = (RETRY_NUDGES as readonly string[]).indexOf(content);
        if (wording >= 0) this.nudges.push({ line, wording, sidechain });
      } else {
        (isInterrupt(content) ? this.interrupts : this.prompts).push(line);
        if (sidechain) this.sidechainUserLines.push(line);
      }
      for (const o of this.onUser) o.user!(content, row, line);
      return 'ok';
    }
    if (!Array.isArray(content)) return 'invalid_structure';
    const interruptsBefore = this.interrupts.length;
    if (row.toolUseResult === USER_REJECTED) this.interrupts.push(line);
    for (const block of content) {
      if (!isObject(block) || typeof block.type !== 'string') return 'invalid_structure';
      this.countBlockType(row.version, block.type);
      if (block.type === 'tool_result') {
        const isError = block.is_error;
        if (typeof block.tool_use_id !== 'string') return 'invalid_structure';
        if (isError !== undefined && typeof isError !== 'boolean') return 'invalid_structure';
        const failed = isError === true;
        const text = failed ? firstText(block.content) : null;
        const toolUseResult = row.toolUseResult;
        const denial = row.toolDenialKind ?? (isObject(toolUseResult) ? toolUseResult.toolDenialKind : undefined);
        this.toolResults.push({
          toolUseId: block.tool_use_id,
          isError: failed,
          line,
          errorKind: failed ? errorKindOf(text, toolUseResult, denial) : null,
          missingParameter: failed ? missingParameterOf(text) : null,
          validation: failed && (isValidationRefusal(text) || (typeof toolUseResult === 'string' && isValidationRefusal(toolUseResult))),
        });
      } else if (block.type === 'text' && typeof block.text === 'string' && isInterrupt(block.text)) {
        this.interrupts.push(line);
      }
    }
    if (sidechain && this.interrupts.length > interruptsBefore) this.sidechainUserLines.push(line);
    for (const o of this.onUser) o.user!(content as ContentBlock[], row, line);
    return 'ok';
  }
}
