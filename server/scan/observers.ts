import type { CaptureBlock } from './capture-model';
import type { AssistantMessage } from './transcript-model';

/**
 * How a detector keeps facts of its own while a file is read (see server/detect/README.md).
 * The builders (build-transcript.ts, build-capture.ts) hold the model several detectors share;
 * a fact only one detector needs is kept by that detector, through an observer the builder
 * calls on every row it accepted, after folding the row into the model. scan defines the hooks
 * and knows nothing of detectors (scan → detect): the caller hands the observers to
 * scanFile / scanCapture.
 *
 * An observer sees payload (the parsed row). It keeps only what may leave the scanner
 * (booleans, counts, line numbers, indexes into fixed lists, pattern-checked values), plus ids
 * and parsed inputs in memory only for pairing, and it never throws.
 */

/** A parsed JSON object: a row, a message, a content block. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** A content block the builder has checked: an object with a string `type`. */
export type ContentBlock = JsonObject & { readonly type: string };

/** Hooks into reading a transcript; each is called only for rows the builder accepted. */
export interface TranscriptObserver {
  /** An assistant row, already folded into `message` (its rows so far); `blocks` is the row's content. */
  assistant?(blocks: readonly ContentBlock[], message: AssistantMessage, row: JsonObject, line: number): void;
  /** A user row: its content is a string, or blocks (a tool_result block has a string tool_use_id). */
  user?(content: string | readonly ContentBlock[], row: JsonObject, line: number): void;
  /** Any other row: system, progress, attachment, summary, and types not known yet. */
  other?(row: JsonObject, line: number): void;
}

/** Hooks into reading a stream capture; each is called only for what the builder accepted. */
export interface CaptureObserver {
  /** A stream-json row other than a stream_event (system, assistant, user, result…); never called for SSE. */
  row?(row: JsonObject, line: number): void;
  /**
   * A tool_use block's content_block_stop, once its input_json_delta text was concatenated and
   * parsed: `input` is that parse, undefined when no delta arrived or the text did not parse.
   * The parse is payload: in memory only.
   */
  toolInput?(block: CaptureBlock, input: unknown, line: number): void;
}
