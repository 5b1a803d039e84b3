import type { Agent } from '../../../shared/agents';
import type { FormatHint } from '../../../shared/format-hints';
import type { ScanErrorCode } from '../../../shared/scan-errors';
import type { RowVerdict } from '../build-transcript';
import type { TranscriptObserver } from '../observers';
import type { SalvagedLine, TranscriptFile } from '../transcript-model';

/**
 * One adapter per agent format: it recognises its format by content and turns a file into the
 * TranscriptFile model the detectors read, plus the agent's name and version. scanFile
 * (scan-file.ts) reads the bytes (fail closed: UTF-8, one JSON value per line or one document,
 * no duplicate key, bounded nesting) and asks the adapters of ADAPTERS (registry.ts), in order,
 * whether the first row (JSONL) or the document (whole-file JSON) is theirs; the first that says
 * `mine` reads the file, one that says `refuse` stops it with that code. When none claims it the
 * file fails `unknown_format` at its first non-blank line, with a hint (format-sniff.ts).
 *
 * How to add an adapter:
 * 1. Add the agent's name to AGENTS (shared/agents.ts) if it is new.
 * 2. Write `server/scan/agents/<agent>.ts` exporting a RowsAdapter (JSONL: a reader per file that
 *    is handed every parsed row with its 1-based line, then `finish`) or a DocumentAdapter (one
 *    JSON document: a pure function of the parsed value and the lines of its objects' opening
 *    braces, so a document built elsewhere, e.g. from a database, reads the same).
 * 3. `recognise` looks at key names and fixed type names only (never the path, never a label such
 *    as Entire's `agent`, never free text), and must not claim another adapter's format: put the
 *    adapter in ADAPTERS before any adapter whose test is broader (Claude Code's is "nothing
 *    foreign", so it declines every shape format-sniff.ts names).
 * 4. Fail closed: a row or object the model needs but that lacks the expected shape returns
 *    `invalid_structure` (or a ScanFailure with another code) at its line; never skip it.
 * 5. Keep no payload: the model holds structure and metadata only (ids and tool names in memory
 *    for pairing; model ids, versions, effort through shared/metadata-patterns.ts). Tool names
 *    outside the agent's built-in list must never be kept as anything but `mcp`/`other` where
 *    they leave the scanner. Set every TranscriptFile field (empty lists where the format has no
 *    such thing) so the detectors read each agent the same way.
 * 6. Add a fixture under fixtures/agents/<agent>/, a canary test over every payload field and a
 *    damaged-file test (test/scan/agents/).
 */

/** What an adapter says of a file's first row or document. */
export type Recognition = 'mine' | 'not_mine' | { refuse: ScanErrorCode; hint?: FormatHint };

/** A reading failure: a code and the 1-based line (null: the file as a whole). */
export interface AdapterFailure {
  code: ScanErrorCode;
  line: number | null;
  hint?: FormatHint;
}

/** An adapter's result: the model, and the agent's own version as the file records it (null when it records none). */
export type AdapterOutcome = { status: 'ok'; transcript: TranscriptFile; agent: Agent; version: string | null } | { status: 'failed'; failure: AdapterFailure };

/** What every reader is given: observers see Claude Code rows only (detectors' facts of that format, observers.ts). */
export interface AdapterContext {
  observers: readonly TranscriptObserver[];
  /** Row types a Claude Code reader also knows here (a stream-json capture's `result`). */
  alsoKnownRowTypes?: ReadonlySet<string>;
}

/** How the rows ended, for `finish`. */
export interface RowsEnd {
  lineCount: number;
  endsWithNewline: boolean;
  /** Salvage mode: damaged lines read around (empty otherwise). */
  salvaged: SalvagedLine[];
}

/** Reads one JSONL file row by row; the first row it is handed is the one it recognised. */
export interface RowsReader {
  addRow(row: unknown, line: number): RowVerdict | AdapterFailure;
  finish(end: RowsEnd): AdapterOutcome;
}

export interface RowsAdapter {
  readonly agent: Agent;
  readonly encoding: 'rows';
  recognise(firstRow: unknown): Recognition;
  start(context: AdapterContext): RowsReader;
}

/** One whole-file JSON document, parsed, with where its objects start. */
export interface JsonDocument {
  value: unknown;
  /**
   * 1-based line of the opening brace of the object at `path` (keys and array indexes from the
   * root, e.g. ['messages', 3, 'parts', 0]); null when there is no object there or it is nested
   * deeper than DOCUMENT_LINE_DEPTH. A document built from elsewhere (a database) supplies its own.
   */
  lineOf(path: readonly (string | number)[]): number | null;
  lineCount: number;
  endsWithNewline: boolean;
}

/**
 * Objects nested up to this depth (the root is 0) have their opening brace's line recorded: the deepest an adapter
 * asks for (`messages[i].parts[j]`, `messages[i].toolCalls[j]`). Each deeper level (a part's state, its input) cost
 * a path and a map entry per object for nothing.
 */
export const DOCUMENT_LINE_DEPTH = 4;

export interface DocumentAdapter {
  readonly agent: Agent;
  readonly encoding: 'document';
  recognise(document: unknown): Recognition;
  /** A pure function of the document: no file access. */
  read(document: JsonDocument, context: AdapterContext): AdapterOutcome;
}

export type AgentAdapter = RowsAdapter | DocumentAdapter;
