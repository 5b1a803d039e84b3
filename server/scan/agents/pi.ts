import { safeEffort, safeModelId, utcDay } from '../../../shared/metadata-patterns';
import type { RowVerdict } from '../build-transcript';
import type { AssistantMessage } from '../transcript-model';
import type { AdapterOutcome, Recognition, RowsAdapter, RowsEnd, RowsReader } from './adapter';
import { builtInName, EventModel, isEmptyObject, isObject, type Json, safeCount } from './event-model';

/**
 * Pi's session file, `~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl` (corpus/agents/SOURCES.md;
 * pi-mono docs/session.md): a header `{type: "session", version, id, timestamp, cwd}` (version 3
 * today; 2 and 1 are migrated in place when Pi opens them, and read the same here: their
 * `message` rows are the same), then entries with `type`, `id`, `parentId`, ISO `timestamp`.
 *
 * - a model message is a `message` row whose `message.role` is `assistant` (`content` blocks
 *   `text`, `thinking`, `toolCall` {id, name, arguments}; `model`, `stopReason`, `usage`);
 * - a result is a `message` row with role `toolResult` (`toolCallId`, `isError`);
 * - effort: the last `thinking_level_change.thinkingLevel`; version: not recorded (null);
 * - `stopReason` is kept as Pi writes it (`stop`, `toolUse`, `length`, `aborted`, `error`); an
 *   aborted reply is an interrupt, an `error` stop counted apart; a `compaction` row is a boundary.
 *
 * Payload never read beyond structure: text, thinking, arguments, result content and details,
 * `errorMessage`, `cwd`, custom entries' data.
 */

/** Pi's own tools (its coding tools and read-only set); an extension's tool is `other`. */
const BUILT_IN_TOOLS = new Set(['read', 'bash', 'edit', 'write', 'grep', 'find', 'ls']);

/** Entry types Pi writes (docs/session.md); others are counted by name. */
const KNOWN_TYPES = new Set([
  'session',
  'message',
  'model_change',
  'thinking_level_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
]);

/** Message roles Pi writes; an unknown role is counted by name, never a failure. */
const KNOWN_ROLES = new Set(['user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'hookMessage', 'branchSummary', 'compactionSummary']);

/** Stop reasons as Pi writes them (kept as written when they are one of these; anything else is `other`). */
const STOP_REASONS = new Set(['stop', 'toolUse', 'length', 'aborted', 'error']);

/** The names of the counts this adapter keeps beside the model. */
export const PI_EVENT_COUNTS = ['tool_errors', 'aborted', 'error_stops', 'compaction', 'unknown_roles'] as const;

const SUPPORTED_VERSIONS = new Set([1, 2, 3]);

function recognise(row: unknown): Recognition {
  if (!isObject(row) || row.type !== 'session' || typeof row.id !== 'string' || !Object.hasOwn(row, 'timestamp')) return 'not_mine';
  if (row.version === undefined || (typeof row.version === 'number' && SUPPORTED_VERSIONS.has(row.version))) return 'mine';
  // A header of a later file version: its rows may mean something else, so it is refused, not guessed at.
  return { refuse: 'unknown_format', hint: 'pi_session' };
}

export class PiReader implements RowsReader {
  private readonly model = new EventModel('pi');
  /** The counts kept beside the model (PI_EVENT_COUNTS). */
  readonly events = this.model.events;
  private effort: string | null = null;

  addRow(row: unknown, line: number): RowVerdict {
    if (!isObject(row) || typeof row.type !== 'string') return 'invalid_structure';
    this.model.seen(row.timestamp);
    switch (row.type) {
      case 'session':
        if (this.model.sessionId === null && typeof row.id === 'string') this.model.sessionId = row.id;
        return 'ok';
      case 'thinking_level_change':
        this.effort = safeEffort(row.thinkingLevel) ?? this.effort;
        return 'ok';
      case 'compaction':
        this.model.compactBoundaries.push(line);
        this.model.count('compaction');
        return 'ok';
      case 'message':
        return this.message(row, line);
      default:
        if (!KNOWN_TYPES.has(row.type)) this.model.unknownRow(null, row.type);
        return 'ok';
    }
  }

  private message(row: Json, line: number): RowVerdict {
    const message = row.message;
    if (!isObject(message) || typeof message.role !== 'string') return 'invalid_structure';
    switch (message.role) {
      case 'assistant':
        return this.assistant(message, row.timestamp, line, typeof row.id === 'string' ? row.id : null);
      case 'toolResult': {
        if (typeof message.toolCallId !== 'string') return 'invalid_structure';
        if (message.isError !== undefined && typeof message.isError !== 'boolean') return 'invalid_structure';
        if (message.isError === true) this.model.count('tool_errors');
        this.model.result(message.toolCallId, line, message.isError === true ? 'other' : null);
        return 'ok';
      }
      case 'user':
        this.model.prompts.push(line);
        return 'ok';
      default:
        if (!KNOWN_ROLES.has(message.role)) this.model.count('unknown_roles');
        return 'ok';
    }
  }

  private assistant(message: Json, timestamp: unknown, line: number, entryId: string | null): RowVerdict {
    const { content, stopReason } = message;
    if (!Array.isArray(content)) return 'invalid_structure';
    if (stopReason !== undefined && typeof stopReason !== 'string') return 'invalid_structure';
    const usage = message.usage;
    const m: AssistantMessage = this.model.addMessage({
      // A message is one row. Its identity (counted once when a fork copies it into another file): the provider's
      // response id, else the session's id and the entry's.
      messageId:
        typeof message.responseId === 'string' && message.responseId !== ''
          ? `response:${message.responseId}`
          : `entry:${this.model.sessionId}:${entryId ?? line}`,
      line,
      model: safeModelId(message.model),
      day: utcDay(timestamp),
      version: null,
      sidechain: false,
      effort: this.effort,
      stopReason: typeof stopReason === 'string' ? (STOP_REASONS.has(stopReason) ? stopReason : 'other') : null,
      outputTokens: isObject(usage) ? safeCount(usage.output) : null,
    });
    for (const block of content) {
      if (!isObject(block) || typeof block.type !== 'string') return 'invalid_structure';
      if (block.type === 'toolCall') {
        if (typeof block.id !== 'string' || typeof block.name !== 'string') return 'invalid_structure';
        this.model.call(m, {
          id: block.id,
          emptyInput: isEmptyObject(block.arguments),
          line,
          name: builtInName(block.name, BUILT_IN_TOOLS, false),
          unparsed: null,
        });
      } else {
        this.model.block(m, block.type === 'text' || block.type === 'thinking' || block.type === 'image' ? block.type : 'other');
      }
    }
    if (stopReason === 'aborted') {
      // What had streamed when the user stopped it (as Claude Code's isAbortedMidStream): in no rate, its turn interrupted.
      m.abortedMidStream = true;
      this.model.interrupts.push(line);
      this.model.count('aborted');
    } else if (stopReason === 'error') {
      this.model.count('error_stops');
    }
    return 'ok';
  }

  finish(end: RowsEnd): AdapterOutcome {
    const transcript = this.model.build(end.lineCount, end.endsWithNewline, end.salvaged);
    return { status: 'ok', transcript, agent: 'pi', version: null };
  }
}

export const piAdapter: RowsAdapter = {
  agent: 'pi',
  encoding: 'rows',
  recognise,
  start: () => new PiReader(),
};
