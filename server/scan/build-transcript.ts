import { safeBlockType, safeModelId, safeVersion, utcDay } from '../../shared/metadata-patterns';
import type { AssistantMessage, ToolResultFact, TranscriptFile } from './transcript-model';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** Result of adding one row: fine, or the row breaks what the detectors rely on. */
export type RowVerdict = 'ok' | 'invalid_structure';

/**
 * Folds rows into the transcript model. Only `assistant` and `user` rows matter to the
 * detectors; their shape is checked strictly (fail closed). Every other row type,
 * known or not, is accepted and skipped.
 */
export class TranscriptBuilder {
  private readonly byId = new Map<string, AssistantMessage>();
  private readonly messages: AssistantMessage[] = [];
  private readonly toolResults: ToolResultFact[] = [];
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  private sessionId: string | null = null;
  private sidechain: boolean | null = null;

  addRow(row: unknown, line: number): RowVerdict {
    if (!isObject(row)) return 'invalid_structure';
    const { type, timestamp } = row;
    if (typeof timestamp === 'string') {
      this.firstTimestamp ??= timestamp;
      this.lastTimestamp = timestamp;
    }
    if (this.sessionId === null && typeof row.sessionId === 'string') this.sessionId = row.sessionId;
    if (this.sidechain === null && typeof row.isSidechain === 'boolean') this.sidechain = row.isSidechain;
    if (type === 'assistant') return this.addAssistant(row, line);
    if (type === 'user') return this.addUser(row, line);
    return 'ok';
  }

  build(lineCount: number, endsWithNewline: boolean): TranscriptFile {
    return {
      messages: this.messages,
      toolResults: this.toolResults,
      lineCount,
      endsWithNewline,
      firstTimestamp: this.firstTimestamp,
      lastTimestamp: this.lastTimestamp,
      sessionId: this.sessionId,
      sidechain: this.sidechain === true,
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
      };
      this.byId.set(id, group);
      this.messages.push(group);
    }
    group.lines.push(line);
    if (typeof stop === 'string') group.stopReason = stop;
    if (row.isApiErrorMessage === true) group.synthetic = true;

    for (const block of content) {
      if (!isObject(block) || typeof block.type !== 'string') return 'invalid_structure';
      const blockType = safeBlockType(block.type);
      if (!group.blockTypes.includes(blockType)) group.blockTypes.push(blockType);
      if (block.type === 'tool_use') {
        if (typeof block.id !== 'string' || !isObject(block.input)) return 'invalid_structure';
        group.toolUses.push({ id: block.id, emptyInput: isEmptyObject(block.input), line });
      } else if (block.type === 'thinking') {
        if (typeof block.signature === 'string' && block.signature.length > 0) group.signedThinking = true;
      }
    }
    return 'ok';
  }

  private addUser(row: Json, line: number): RowVerdict {
    const message = row.message;
    if (!isObject(message)) return 'invalid_structure';
    const content = message.content;
    if (typeof content === 'string') return 'ok';
    if (!Array.isArray(content)) return 'invalid_structure';
    for (const block of content) {
      if (!isObject(block) || typeof block.type !== 'string') return 'invalid_structure';
      if (block.type === 'tool_result') {
        const isError = block.is_error;
        if (typeof block.tool_use_id !== 'string') return 'invalid_structure';
        if (isError !== undefined && typeof isError !== 'boolean') return 'invalid_structure';
        this.toolResults.push({ toolUseId: block.tool_use_id, isError: isError === true, line });
      }
    }
    return 'ok';
  }
}
