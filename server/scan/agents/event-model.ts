import type { Agent } from '../../../shared/agents';
import { safeBlockType, safeTimestamp } from '../../../shared/metadata-patterns';
import type { ErrorKind } from '../harness-markers';
import {
  type AssistantMessage,
  emptyTranscript,
  emptyVersionDiagnostics,
  type SalvagedLine,
  type ToolResultFact,
  type ToolUseFact,
  type TranscriptFile,
  type VersionDiagnostics,
} from '../transcript-model';

/**
 * The TranscriptFile model, assembled from the events of an agent whose format is not Claude
 * Code's (Copilot CLI, Pi, Gemini CLI). Each adapter decides what its rows mean; this keeps the
 * bookkeeping in one place: messages in order, results, timestamps, prompts, compactions, and
 * per-version counts of unknown row types. Only pattern-checked metadata is ever put here: ids
 * and tool names stay in memory for pairing, as for Claude Code.
 */

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

export function isEmptyObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** A non-negative safe integer, else null (token counts). */
export function safeCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** Event and row type names as they may leave the scanner: lower-case words joined by `.`/`_`/`-`, else `other`. */
const EVENT_NAME = /^[a-z][a-z0-9_-]{0,39}(?:\.[a-z][a-z0-9_-]{0,39}){0,3}$/;
export function eventName(value: unknown): string {
  return typeof value === 'string' && value.length <= 80 && EVENT_NAME.test(value) ? value : 'other';
}

/**
 * The name a call keeps in memory: the agent's own built-in tool names as written, `mcp` for an
 * MCP tool, `other` for anything else (a custom or extension tool). Detectors compare names to
 * tell repeated calls apart and report only a fixed list; a custom name is never kept at all.
 */
export function builtInName(name: string, builtIns: ReadonlySet<string>, mcp: boolean): string {
  if (mcp) return 'mcp';
  return builtIns.has(name) ? name : 'other';
}

export interface MessageInit {
  messageId: string;
  line: number;
  model: string | null;
  day: string | null;
  version: string | null;
  sidechain: boolean;
  effort: string | null;
  stopReason: string | null;
  outputTokens: number | null;
}

/** Counts an agent's adapter keeps beside the model (denials, hook failures, rewinds…): names from a fixed list per adapter. */
export type AgentEventCounts = Record<string, number>;

export class EventModel {
  /** Whose format it is: set on the model, so only the detectors that read this agent's files run (detector.ts `agents`). */
  constructor(private readonly agent: Agent) {}

  readonly messages: AssistantMessage[] = [];
  readonly toolResults: ToolResultFact[] = [];
  readonly prompts: number[] = [];
  readonly interrupts: number[] = [];
  readonly sidechainUserLines: number[] = [];
  readonly compactBoundaries: number[] = [];
  /** Agent-specific counts (see each adapter), never payload. */
  readonly events: AgentEventCounts = {};
  private readonly diagnostics = new Map<string, VersionDiagnostics>();
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  sessionId: string | null = null;
  sidechain = false;

  count(name: string, by = 1): void {
    this.events[name] = (this.events[name] ?? 0) + by;
  }

  /** A row's timestamp (pattern-checked, canonical UTC) for the file's first and last. */
  seen(timestamp: unknown): void {
    const at = safeTimestamp(timestamp);
    if (at === null) return;
    this.firstTimestamp ??= at;
    this.lastTimestamp = at;
  }

  diagnosticsFor(version: string | null): VersionDiagnostics {
    const key = version ?? '';
    let d = this.diagnostics.get(key);
    if (!d) {
      d = emptyVersionDiagnostics(version);
      this.diagnostics.set(key, d);
    }
    return d;
  }

  /** A row type the adapter does not know: counted by (pattern-checked) name, never a failure. */
  unknownRow(version: string | null, type: unknown): void {
    const d = this.diagnosticsFor(version);
    const name = eventName(type);
    d.unknownRowTypes[name] = (d.unknownRowTypes[name] ?? 0) + 1;
  }

  addMessage(init: MessageInit): AssistantMessage {
    const message: AssistantMessage = {
      index: this.messages.length,
      messageId: init.messageId,
      lines: [init.line],
      stopReason: init.stopReason,
      blockTypes: [],
      toolUses: [],
      signedThinking: false,
      model: init.model,
      synthetic: false,
      day: init.day,
      version: init.version,
      sidechain: init.sidechain,
      leak: null,
      retryExhausted: false,
      damaged: false,
      outputTokens: init.outputTokens,
      entrypoint: null,
      effort: init.effort,
      abortedMidStream: false,
      apiErrorKind: null,
    };
    this.messages.push(message);
    return message;
  }

  /** Records a block type on a message (fixed names: text, thinking, tool_use…), and the per-version text/tool-use counts. */
  block(message: AssistantMessage, type: string): void {
    const name = safeBlockType(type);
    if (!message.blockTypes.includes(name)) message.blockTypes.push(name);
  }

  call(message: AssistantMessage, call: ToolUseFact): void {
    message.toolUses.push(call);
    this.block(message, 'tool_use');
  }

  result(toolUseId: string, line: number, errorKind: ErrorKind | null): void {
    this.toolResults.push({ toolUseId, isError: errorKind !== null, line, errorKind, missingParameter: null, validation: false });
  }

  build(lineCount: number, endsWithNewline: boolean, salvaged: SalvagedLine[] = []): TranscriptFile {
    const ascending = (a: number, b: number) => a - b;
    this.prompts.sort(ascending);
    this.interrupts.sort(ascending);
    this.sidechainUserLines.sort(ascending);
    this.compactBoundaries.sort(ascending);
    for (const m of this.messages) {
      const d = this.diagnosticsFor(m.version);
      if (m.blockTypes.includes('text')) d.textRows++;
      if (m.blockTypes.includes('tool_use')) d.toolUseRows++;
    }
    return {
      ...emptyTranscript(),
      messages: this.messages,
      toolResults: this.toolResults,
      lineCount,
      endsWithNewline,
      firstTimestamp: this.firstTimestamp,
      lastTimestamp: this.lastTimestamp,
      sessionId: this.sessionId,
      sidechain: this.sidechain,
      interrupts: this.interrupts,
      prompts: this.prompts,
      sidechainUserLines: this.sidechainUserLines,
      diagnostics: [...this.diagnostics.values()],
      compactBoundaries: this.compactBoundaries,
      salvaged,
      agent: this.agent,
    };
  }
}
