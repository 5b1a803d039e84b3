import type { Agent } from '../../shared/agents';
import type { ApiErrorKind, ErrorKind } from './harness-markers';
import type { JsonStop } from './json-stop';

/**
 * What the scanner keeps of one transcript file: structure and metadata, no payload.
 * Detectors are pure functions over this model. Ids (message.id, tool_use ids) stay in
 * memory so rows can be grouped and calls paired; they never leave the scanner.
 *
 * The model holds what several consumers share (rows, messages, blocks, calls, results, and
 * the harness markers more than one rule reads). A fact only one detector needs is not added
 * here: that detector keeps it through an observer (observers.ts, server/detect/README.md).
 */

export interface ToolUseFact {
  /** tool_use block id; kept in memory only, for pairing with results. */
  id: string;
  /** The input is exactly {} (a plain object with no keys). */
  emptyInput: boolean;
  line: number;
  /** Tool name; kept in memory only, to tell repeated calls to one tool apart. */
  name: string;
  /**
   * The input holds the key `__unparsedToolInput`: Claude Code could not parse the streamed
   * arguments and kept what arrived. `len` (null unless a sane non-negative safe integer); of
   * `raw` (payload) only its length in UTF-16 code units and where it stops parsing as JSON
   * (offset and the token kind expected there, null when it parses): never its bytes.
   */
  unparsed: { len: number | null; rawChars?: number | null; stop?: JsonStop | null } | null;
}

export interface AssistantMessage {
  /** Position of the message's first row among the file's messages. */
  index: number;
  /** message.id; kept in memory only. */
  messageId: string;
  /** 1-based numbers of every row of the message, ascending (rows need not be adjacent). */
  lines: number[];
  /** Last non-null stop_reason among the rows; null when every row says null (unknown). */
  stopReason: string | null;
  /** Distinct content block types in order of first appearance (free-form names become `other`). */
  blockTypes: string[];
  toolUses: ToolUseFact[];
  /** A thinking block has a non-empty signature. */
  signedThinking: boolean;
  /** message.model of the first row when it matches the conservative model-id pattern. */
  model: string | null;
  /** message.model is `<synthetic>` or the row is flagged isApiErrorMessage: written by the harness. */
  synthetic: boolean;
  /** UTC day of the first row's timestamp. */
  day: string | null;
  /** Claude Code version of the first row, when it looks like a version. */
  version: string | null;
  /** The first row says isSidechain: true (a subagent's message). */
  sidechain: boolean;
  /** A text block holds leaked tool-call markup; `opener` indexes OPENER_WORDS. */
  leak: { opener: number | null } | null;
  /** Harness-written text holds the exhausted-retry marker (malformed_retry_exhausted, the session end). */
  retryExhausted: boolean;
  /**
   * Salvage mode only: a dropped torn row could have been one of this message's rows (or the
   * result of one of its calls), so the message counts in no numerator and no denominator.
   */
  damaged: boolean;
  /** `usage.output_tokens` of the last row that records it (null: not recorded). */
  outputTokens?: number | null;
  /** The first row's `entrypoint` from a fixed list (`cli`, `sdk-ts`, …; `other` for any other string), null when absent. */
  entrypoint?: string | null;
  /**
   * The effort the reply was asked at: the row's top-level `effort` (2.1.212+, pattern-checked), else the
   * nearest effort recorded on an earlier row of the file; null when nothing before it records one.
   */
  effort: string | null;
  /**
   * A row of it says `isAbortedMidStream` (2.1.220+): what had streamed when the user interrupted. Not a
   * model reply: it counts in no rate and is the source of no finding; its turn ends `interrupted`.
   */
  abortedMidStream: boolean;
  /** Harness-written rows only: what their text says went wrong (null for a model message). */
  apiErrorKind: ApiErrorKind | null;
}

export interface HarnessNudge {
  line: number;
  /** Index into RETRY_NUDGES. */
  wording: number;
  sidechain: boolean;
}

export interface ToolResultFact {
  /** tool_use_id the result answers; kept in memory only. */
  toolUseId: string;
  isError: boolean;
  line: number;
  /** For an error result: why the call was refused, by fixed patterns (see ERROR_KINDS); null for a success. */
  errorKind: ErrorKind | null;
  /**
   * For an error result naming "The required parameter `x` is missing": that name (an identifier);
   * in memory only: a detector reports it only from the fixed list of built-in tools' parameters.
   */
  missingParameter?: string | null;
  /** For an error result: it is a validation refusal (InputValidationError or an unloaded schema). */
  validation: boolean;
}

/** Per Claude Code version, what the file's rows look like: for persistence-gap and new-format diagnostics. */
/** A version's diagnostics before anything is counted. */
export function emptyVersionDiagnostics(version: string | null): VersionDiagnostics {
  return {
    version,
    textRows: 0,
    toolUseRows: 0,
    unknownRowTypes: {},
    unknownBlockTypes: {},
    unknownSystemSubtypes: {},
    compactionSplits: 0,
    callsOpenAtEnd: 0,
    rejectedToolInput: {},
  };
}

export interface VersionDiagnostics {
  version: string | null;
  textRows: number;
  toolUseRows: number;
  /** Row types and content block types the scanner does not know (names pattern-checked), with counts. */
  unknownRowTypes: Record<string, number>;
  unknownBlockTypes: Record<string, number>;
  /** System row subtypes the scanner does not know (pattern-checked names), with counts. */
  unknownSystemSubtypes: Record<string, number>;
  /** Calls without a result split from it by auto-compaction (a compact_boundary before the next model message). */
  compactionSplits: number;
  /** Calls without a result after which the file holds no other model message (copied or ended while the call ran). */
  callsOpenAtEnd: number;
  /** Calls with non-empty input refused by validation (the model's own mistakes, not lost arguments), by error kind. */
  rejectedToolInput: Record<string, number>;
}

/** A damaged line read in salvage mode: its code, its line, and whether a torn row was dropped there. */
export interface SalvagedLine {
  code: 'concatenated_rows' | 'malformed_json';
  line: number;
  /** Complete rows kept from the line. */
  rowsKept: number;
  /** A torn row (not one complete JSON object on its own) was dropped. */
  stubDropped: boolean;
}

export interface TranscriptFile {
  /** Messages in order of their first row. */
  messages: AssistantMessage[];
  /** Tool results in file order. */
  toolResults: ToolResultFact[];
  lineCount: number;
  endsWithNewline: boolean;
  /** Timestamps (as written) of the first and last rows that carry one. */
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** sessionId of the first row that has one; kept in memory only (the index stores a hash). */
  sessionId: string | null;
  /** The first row that says isSidechain says true: a subagent transcript. */
  sidechain: boolean;
  /** Retry nudges (meta user rows with the exact harness wording). */
  nudges: HarnessNudge[];
  /** Lines of user rows saying the user interrupted or rejected a call. */
  interrupts: number[];
  /** Lines of typed user prompts (string content, not harness-written): they end runs of calls. */
  prompts: number[];
  /** The lines of `prompts` and `interrupts` written on subagent rows (isSidechain), ascending. */
  sidechainUserLines: number[];
  diagnostics: VersionDiagnostics[];
  /** Lines of `system` rows with subtype compact_boundary (auto or manual compaction). */
  compactBoundaries: number[];
  /** Salvage mode: the damaged lines read around (empty otherwise). */
  salvaged: SalvagedLine[];
  /** Whose format the file is (its adapter, server/scan/agents/); absent: Claude Code. */
  agent?: Agent;
  /**
   * The model messages as the format itself records them, when that differs from `messages`
   * (Codex: one `message` item per reply, while a message here is one model step, its reasoning,
   * reply and calls between two inputs); absent: `messages.length`.
   */
  modelMessages?: number;
}

/** A model with nothing in it, for an adapter to fill or a test to build on: every list empty, no timestamps, no session. */
export function emptyTranscript(): TranscriptFile {
  return {
    messages: [],
    toolResults: [],
    lineCount: 0,
    endsWithNewline: true,
    firstTimestamp: null,
    lastTimestamp: null,
    sessionId: null,
    sidechain: false,
    nudges: [],
    interrupts: [],
    prompts: [],
    sidechainUserLines: [],
    diagnostics: [],
    compactBoundaries: [],
    salvaged: [],
  };
}
