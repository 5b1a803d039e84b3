import { safeBlockType, safeModelId, safeTerminalReason, safeVersion } from '../../shared/metadata-patterns';
import type { CaptureBlock, CaptureFile, CaptureMessage } from './capture-model';
import type { CaptureObserver } from './observers';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Row types of `--output-format stream-json` (FORMAT.md §10). */
const STREAM_JSON_TYPES = new Set(['stream_event', 'system', 'assistant', 'user', 'result']);

/**
 * Replays Messages API stream events (from either capture format) into messages and blocks,
 * showing the observers (the detectors' own facts, see observers.ts) what they hook into.
 */
export class CaptureBuilder {
  private readonly messages: CaptureMessage[] = [];
  private current: CaptureMessage | null = null;
  private readonly open = new Map<number, { block: CaptureBlock; json: string }>();
  private version: string | null = null;
  private terminalReason: string | null = null;
  private resultLine: number | null = null;
  private sessionId: string | null = null;

  /** Rows or events a capture reader knows: a file with none is `unknown_format`. */
  recognised = 0;
  /** Whole `assistant` rows (stream-json): without stream events they are the messages (read as a transcript). */
  wholeAssistantRows = 0;

  private readonly onRow: CaptureObserver[];
  private readonly onToolInput: CaptureObserver[];

  constructor(
    private readonly format: 'stream-json' | 'sse',
    observers: readonly CaptureObserver[] = [],
  ) {
    this.onRow = observers.filter((o) => o.row);
    this.onToolInput = observers.filter((o) => o.toolInput);
  }

  /** A stream-json row. */
  addRow(row: unknown, line: number): 'ok' | 'invalid_structure' {
    if (!isObject(row)) return 'invalid_structure';
    if (this.sessionId === null && typeof row.session_id === 'string') this.sessionId = row.session_id;
    if (typeof row.type === 'string' && STREAM_JSON_TYPES.has(row.type)) this.recognised++;
    if (row.type === 'stream_event') return this.addEvent(row.event, line);
    if (row.type === 'result') {
      // The last result row of the run decides (a capture holds one).
      this.terminalReason = safeTerminalReason(row.terminal_reason);
      this.resultLine = line;
    }
    if (row.type === 'system' && row.subtype === 'init') this.version ??= safeVersion(row.claude_code_version);
    if (row.type === 'assistant') {
      const message = row.message;
      if (!isObject(message) || !Array.isArray(message.content)) return 'invalid_structure';
      this.wholeAssistantRows++;
      for (const block of message.content) if (!isObject(block) || typeof block.type !== 'string') return 'invalid_structure';
    }
    for (const o of this.onRow) o.row!(row, line);
    return 'ok';
  }

  /** One API event (a stream_event's `event`, or an SSE `data:` payload). */
  addEvent(event: unknown, line: number): 'ok' | 'invalid_structure' {
    if (!isObject(event) || typeof event.type !== 'string') return 'invalid_structure';
    this.recognised++;
    switch (event.type) {
      case 'message_start': {
        const m = event.message;
        if (!isObject(m) || typeof m.id !== 'string') return 'invalid_structure';
        this.closeOpenBlocks();
        this.current = {
          index: this.messages.length,
          messageId: m.id,
          startLine: line,
          model: safeModelId(m.model),
          blocks: [],
          stopReason: null,
          stopLine: null,
        };
        this.messages.push(this.current);
        return 'ok';
      }
      case 'content_block_start': {
        const b = event.content_block;
        if (!this.current || typeof event.index !== 'number' || !isObject(b) || typeof b.type !== 'string') return 'invalid_structure';
        const block: CaptureBlock = {
          index: event.index,
          type: safeBlockType(b.type),
          toolUseId: b.type === 'tool_use' && typeof b.id === 'string' ? b.id : null,
          startLine: line,
          stopLine: null,
          inputDeltas: 0,
          unparseable: false,
        };
        this.current.blocks.push(block);
        this.open.set(event.index, { block, json: '' });
        return 'ok';
      }
      case 'content_block_delta': {
        const d = event.delta;
        if (typeof event.index !== 'number' || !isObject(d)) return 'invalid_structure';
        const open = this.open.get(event.index);
        if (!open) return 'invalid_structure';
        if (d.type === 'input_json_delta') {
          if (typeof d.partial_json !== 'string') return 'invalid_structure';
          open.json += d.partial_json;
          open.block.inputDeltas++;
        }
        return 'ok';
      }
      case 'content_block_stop': {
        if (typeof event.index !== 'number') return 'invalid_structure';
        const open = this.open.get(event.index);
        if (!open) return 'invalid_structure';
        this.finish(open, line);
        this.open.delete(event.index);
        return 'ok';
      }
      case 'message_delta': {
        const d = event.delta;
        if (!this.current || !isObject(d)) return 'invalid_structure';
        if (typeof d.stop_reason === 'string') {
          this.current.stopReason = d.stop_reason;
          this.current.stopLine = line;
        }
        return 'ok';
      }
      default:
        return 'ok'; // message_stop, ping, error and new event types
    }
  }

  private finish(open: { block: CaptureBlock; json: string }, line: number): void {
    open.block.stopLine = line;
    if (open.block.type !== 'tool_use') return;
    let input: unknown;
    if (open.block.inputDeltas > 0) {
      try {
        input = JSON.parse(open.json);
      } catch {
        open.block.unparseable = true;
      }
    }
    for (const o of this.onToolInput) o.toolInput!(open.block, input, line);
  }

  private closeOpenBlocks(): void {
    this.open.clear();
  }

  build(): CaptureFile {
    return {
      format: this.format,
      version: this.version,
      messages: this.messages,
      terminalReason: this.terminalReason,
      resultLine: this.resultLine,
      sessionId: this.sessionId,
      wholeAssistantRows: this.wholeAssistantRows,
    };
  }
}
