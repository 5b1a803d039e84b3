import { createHash } from 'node:crypto';
import type { SessionEnd } from '../../shared/session-ends';
import type { TurnEnd, TurnEndApiErrorKind } from '../../shared/turn-ends';
import { analyseFileAndSource, type FileAnalysis, hashMessageId } from '../detect/analyse-file';
import { classifyTurnEnds } from '../detect/classify-turn-ends';
import { classifySessionEnd } from '../detect/session-end';
import type { BuiltDocument } from '../scan/agents/read-document';
import type { CaptureFile } from '../scan/capture-model';
import { isSessionSource, sessionDocument } from '../scan/opencode-db';
import type { AssistantMessage, TranscriptFile } from '../scan/transcript-model';

/** The (day, version, model, thread, effort) a message is counted under. */
export interface MessageCell {
  day: string | null;
  version: string | null;
  model: string | null;
  sidechain: boolean;
  /** The effort it was asked at (null: nothing recorded one). */
  effort: string | null;
}

/**
 * A file's assistant messages, reduced to what rates need, as parallel typed arrays: they
 * cross from a worker thread to the writer far cheaper than one object per message.
 * Harness-written (synthetic) messages are kept, flagged: they count in no rate's denominator,
 * only as their own number, and a copy of one in several files still counts once.
 */
export interface MessageTable {
  cells: MessageCell[];
  /** Per message: index into `cells`. */
  cell: Uint32Array;
  /** Per message: 64-bit hash of message.id, to count a message copied into several files once. */
  hash: BigInt64Array;
  /**
   * Per message: 1 for a tool-use turn: its stop reason is tool_use, or unknown (null on every
   * row, as 2.1.12–2.1.52 write it) and it holds a tool_use block.
   */
  toolUse: Uint8Array;
  /** Per message: 1 when some row recorded a stop reason. */
  stopKnown: Uint8Array;
  /** Per message: 1 when the harness wrote it (`<synthetic>` model or isApiErrorMessage). */
  synthetic: Uint8Array;
  /** Every message of the table was read from a stream capture (stream-json or SSE). */
  capture: boolean;
}

export interface FileFacts {
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** SHA-256 (hex, 16 chars) of the session id; the id itself never leaves. */
  sessionHash: string | null;
  sidechain: boolean;
  /** How the last turn ended, with the version, model and day of its message (null for captures and sessions without one). */
  sessionEnd: SessionEndFact | null;
  /** How every turn ended, counted per cell of its message, class, error kind and whether it was the file's last (empty for captures). */
  turnEnds: TurnEndCount[];
}

export interface TurnEndCount {
  cell: MessageCell;
  end: TurnEnd;
  apiErrorKind: TurnEndApiErrorKind | null;
  last: boolean;
  count: number;
}

export interface SessionEndFact {
  end: SessionEnd;
  version: string | null;
  model: string | null;
  day: string | null;
  effort: string | null;
}

type OkAnalysis = Extract<FileAnalysis, { status: 'ok' }>;

/** What the index writes for one file: the detect stage's analysis, plus (when the file was read) its message table and facts. */
export type IndexAnalysis = Exclude<FileAnalysis, { status: 'ok' }> | (OkAnalysis & { messages: MessageTable; facts: FileFacts });

export interface AnalyseForIndexOptions {
  /** Read the complete rows of damaged lines instead of failing the file (the user's explicit choice). */
  salvage?: boolean;
  /** The time a cut last line's quiet period is measured from (default: the clock when the file is read). */
  now?: number;
}

/** A tool-use turn: the stop reason says tool_use, or no row recorded one and the message calls a tool. */
export function isToolUseTurn(stopReason: string | null, hasToolUse: boolean): boolean {
  return stopReason === 'tool_use' || (stopReason === null && hasToolUse);
}

function shortHash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

function messageTable(messages: readonly AssistantMessage[]): MessageTable {
  const table: MessageTable = {
    cells: [],
    cell: new Uint32Array(messages.length),
    hash: new BigInt64Array(messages.length),
    toolUse: new Uint8Array(messages.length),
    stopKnown: new Uint8Array(messages.length),
    synthetic: new Uint8Array(messages.length),
    capture: false,
  };
  const index = new Map<string, number>();
  messages.forEach((m, i) => {
    // `<synthetic>` is the harness's name, not a model: its rows go under the unknown model.
    const model = m.synthetic && m.model === '<synthetic>' ? null : m.model;
    const key = `${m.day}|${m.version}|${model}|${m.sidechain}|${m.effort}`;
    let c = index.get(key);
    if (c === undefined) {
      c = table.cells.length;
      index.set(key, c);
      table.cells.push({ day: m.day, version: m.version, model, sidechain: m.sidechain, effort: m.effort });
    }
    table.cell[i] = c;
    table.hash[i] = hashMessageId(m.messageId);
    table.toolUse[i] = !m.synthetic && isToolUseTurn(m.stopReason, m.toolUses.length > 0) ? 1 : 0;
    table.stopKnown[i] = !m.synthetic && m.stopReason !== null ? 1 : 0;
    table.synthetic[i] = m.synthetic ? 1 : 0;
  });
  return table;
}

function captureTable(capture: CaptureFile): MessageTable {
  const cells = [...new Set(capture.messages.map((m) => m.model))].map((model) => ({
    day: null,
    version: capture.version,
    model,
    sidechain: false,
    effort: null,
  }));
  return {
    cells,
    cell: Uint32Array.from(capture.messages, (m) => cells.findIndex((c) => c.model === m.model)),
    hash: BigInt64Array.from(capture.messages, (m) => hashMessageId(m.messageId)),
    toolUse: Uint8Array.from(capture.messages, (m) =>
      isToolUseTurn(
        m.stopReason,
        m.blocks.some((b) => b.type === 'tool_use'),
      )
        ? 1
        : 0,
    ),
    stopKnown: Uint8Array.from(capture.messages, (m) => (m.stopReason === null ? 0 : 1)),
    synthetic: new Uint8Array(capture.messages.length),
    capture: true,
  };
}

function sessionEndFact(transcript: TranscriptFile): SessionEndFact | null {
  const verdict = classifySessionEnd(transcript);
  if (verdict === null) return null;
  const m = verdict.message;
  return { end: verdict.end, version: m?.version ?? null, model: m?.model ?? null, day: m?.day ?? null, effort: m?.effort ?? null };
}

/** Every turn end of a transcript, counted per (cell, class, error kind, last). */
function turnEndCounts(transcript: TranscriptFile): TurnEndCount[] {
  const counts = new Map<string, TurnEndCount>();
  for (const t of classifyTurnEnds(transcript)) {
    const m = t.message;
    // As for the message table: `<synthetic>` is no model.
    const cell = { day: m.day, version: m.version, model: m.synthetic ? null : m.model, sidechain: transcript.sidechain, effort: m.effort };
    const key = `${cell.day}|${cell.version}|${cell.model}|${cell.effort}|${t.end}|${t.apiErrorKind}|${t.last}`;
    const c = counts.get(key);
    if (c) c.count++;
    else counts.set(key, { cell, end: t.end, apiErrorKind: t.apiErrorKind, last: t.last, count: 1 });
  }
  return [...counts.values()];
}

/**
 * Analyse one file for the index: the detect stage's analysis (read so that a cut last line means
 * "still being written"), plus the per-message table the denominators are built from and the
 * file's facts. Payload-free: hashes, cells of metadata and counts.
 */
export function analyseForIndex(path: string, options: AnalyseForIndexOptions = {}): IndexAnalysis {
  // A session of OpenCode's database (issue 38): rebuilt here, in the analysing thread, in memory, then read as its export.
  let document: BuiltDocument | undefined;
  if (isSessionSource(path)) {
    const session = sessionDocument(path);
    if ('code' in session) return { status: 'failed', bytes: 0, failure: { code: session.code, line: session.line } };
    document = session;
  }
  const { analysis, source } = analyseFileAndSource(path, { forIndex: true, salvage: options.salvage === true, now: options.now, document });
  if (analysis.status !== 'ok' || source === null) return analysis as Exclude<FileAnalysis, { status: 'ok' }>;
  if (source.kind === 'capture') {
    const { capture } = source;
    return {
      ...analysis,
      messages: captureTable(capture),
      facts: {
        firstTimestamp: null,
        lastTimestamp: null,
        sessionHash: capture.sessionId === null ? null : shortHash(capture.sessionId),
        sidechain: false,
        sessionEnd: null,
        turnEnds: [],
      },
    };
  }
  const { transcript } = source;
  return {
    ...analysis,
    // Salvage mode: messages a dropped torn row could belong to count in no denominator either.
    // The partial text kept on an interrupt (isAbortedMidStream) is no model reply: in no denominator either.
    messages: messageTable(transcript.messages.filter((m) => !m.damaged && !m.abortedMidStream)),
    facts: {
      firstTimestamp: transcript.firstTimestamp,
      lastTimestamp: transcript.lastTimestamp,
      sessionHash: transcript.sessionId === null ? null : shortHash(transcript.sessionId),
      sidechain: transcript.sidechain,
      sessionEnd: sessionEndFact(transcript),
      turnEnds: turnEndCounts(transcript),
    },
  };
}
