import { safeModelId, utcDay } from '../../../shared/metadata-patterns';
import type { RowVerdict } from '../build-transcript';
import type { SalvagedLine, TranscriptFile } from '../transcript-model';
import type { AdapterOutcome, DocumentAdapter, JsonDocument, Recognition, RowsAdapter, RowsEnd, RowsReader } from './adapter';
import { builtInName, EventModel, isEmptyObject, isObject, type Json, safeCount } from './event-model';

/**
 * Gemini CLI's chat recordings, `~/.gemini/tmp/<project>/chats/session-*.json|.jsonl`
 * (corpus/agents/SOURCES.md), in both encodings:
 * - whole JSON (up to v0.38, rewritten in place): `{sessionId, projectHash, startTime,
 *   lastUpdated, messages: [...]}` (newer files add `kind`); the line of a message or a call is
 *   the line of its object's opening brace;
 * - JSONL (v0.39+, appended): row 1 is that header (without `messages`, or with a list), then
 *   message rows, `{"$set": {...}}` rows (`messages` there is a list of messages) and
 *   `{"$rewindTo": id}` rows. The same message `id` is written again as it grows: the last copy
 *   holds its final calls and statuses, so each id is read once, from its last copy (its lines
 *   are every line a copy of it is on).
 *
 * Messages `{id, timestamp, type, content, thoughts, tokens, model, toolCalls}`: `type: "gemini"`
 * is a model message, `user` a prompt, `error` an error the CLI wrote (counted apart), `info` and
 * `warning` nothing. Calls are `toolCalls[]` (`id`, `name`, `status`); the result is inline: a
 * call with `status` `success`, `error` or `cancelled` (or a `result`) has one, at the call's line
 * (`error` a tool error, `cancelled` the user's refusal). Version: not recorded (null).
 *
 * Payload never read beyond structure: content, displayContent, thoughts, args, result,
 * resultDisplay, description, summary, memoryScratchpad, projectHash, directories.
 */

/** Gemini CLI's own tools and built-in sub-agents; any other name (an MCP or extension tool) is `other`. */
const BUILT_IN_TOOLS = new Set([
  'read_file',
  'read_many_files',
  'write_file',
  'replace',
  'edit',
  'list_directory',
  'glob',
  'grep_search',
  'search_file_content',
  'run_shell_command',
  'web_fetch',
  'google_web_search',
  'save_memory',
  'write_todos',
  'activate_skill',
  'ask_user',
  'enter_plan_mode',
  'exit_plan_mode',
  'update_topic',
  'codebase_investigator',
  'cli_help',
  'generalist',
]);

/** The names of the counts this adapter keeps beside the model. */
export const GEMINI_EVENT_COUNTS = ['tool_errors', 'cancelled', 'error_messages', 'rewinds', 'unknown_message_types'] as const;

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'warning', 'error']);

const isHeader = (row: Json) => typeof row.sessionId === 'string' && typeof row.projectHash === 'string';

/** One message as last written, with every line a copy of it is on and where each call starts. */
interface Kept {
  message: Json;
  lines: number[];
  /** Line of the message's (last copy's) object. */
  line: number;
  /** Line of call j's object in the last copy (JSONL: the message's line). */
  callLine: (j: number) => number;
}

/** The shape every message must have; calls must have an id and a name. */
function checkMessage(message: unknown): message is Json {
  if (!isObject(message) || typeof message.id !== 'string' || message.id.length === 0 || typeof message.type !== 'string') return false;
  const calls = message.toolCalls;
  if (calls === undefined || calls === null) return true;
  if (!Array.isArray(calls)) return false;
  for (const call of calls) {
    if (!isObject(call) || typeof call.id !== 'string' || typeof call.name !== 'string') return false;
    if (call.status !== undefined && typeof call.status !== 'string') return false;
  }
  return true;
}

/** The messages of one chat, by id in order of first appearance, each from its last copy. */
class GeminiFold {
  private readonly kept = new Map<string, Kept>();
  private readonly model = new EventModel('gemini-cli');
  readonly events = this.model.events;

  header(row: Json): void {
    if (this.model.sessionId === null && typeof row.sessionId === 'string') this.model.sessionId = row.sessionId;
    if (row.kind === 'subagent') this.model.sidechain = true;
    this.model.seen(row.startTime);
    this.model.seen(row.lastUpdated);
  }

  message(message: Json, line: number, callLine: (j: number) => number): void {
    const previous = this.kept.get(message.id as string);
    const lines = previous ? previous.lines : [];
    if (lines[lines.length - 1] !== line) lines.push(line);
    this.kept.set(message.id as string, { message, lines, line, callLine });
  }

  rewind(): void {
    this.model.count('rewinds');
  }

  build(lineCount: number, endsWithNewline: boolean, salvaged: SalvagedLine[] = []): TranscriptFile {
    const model = this.model;
    // Messages in order of their first line (a JSONL copy may be rewritten after later messages).
    const kept = [...this.kept.values()].sort((a, b) => a.lines[0]! - b.lines[0]!);
    for (const { message, lines, line, callLine } of kept) {
      model.seen(message.timestamp);
      if (message.type === 'user') model.prompts.push(lines[0]!);
      else if (message.type === 'error') model.count('error_messages');
      else if (!MESSAGE_TYPES.has(message.type as string)) model.count('unknown_message_types');
      if (message.type !== 'gemini') continue;
      const tokens = message.tokens;
      const m = model.addMessage({
        messageId: message.id as string,
        line: lines[0]!,
        model: safeModelId(message.model),
        day: utcDay(message.timestamp),
        version: null,
        sidechain: model.sidechain,
        effort: null,
        stopReason: null,
        outputTokens: isObject(tokens) ? safeCount(tokens.output) : null,
      });
      m.lines = lines.length > 1 ? [...new Set(lines)].sort((a, b) => a - b) : lines;
      const thoughts = message.thoughts;
      if (Array.isArray(thoughts) && thoughts.length > 0) model.block(m, 'thinking');
      const content = message.content;
      if ((typeof content === 'string' && content.length > 0) || (Array.isArray(content) && content.length > 0)) model.block(m, 'text');
      const calls = (message.toolCalls ?? []) as Json[];
      calls.forEach((call, j) => {
        const at = callLine(j) || line;
        const id = call.id as string;
        model.call(m, { id, emptyInput: isEmptyObject(call.args), line: at, name: builtInName(call.name as string, BUILT_IN_TOOLS, false), unparsed: null });
        const status = call.status;
        if (status === 'error') {
          model.count('tool_errors');
          model.result(id, at, 'other');
        } else if (status === 'cancelled') {
          model.count('cancelled');
          model.result(id, at, 'user_rejected');
        } else if (status === 'success' || (call.result !== undefined && call.result !== null)) {
          model.result(id, at, null);
        }
      });
    }
    return model.build(lineCount, endsWithNewline, salvaged);
  }
}

/** The JSONL encoding: one reader per file. */
export class GeminiRowsReader implements RowsReader {
  private readonly fold = new GeminiFold();
  readonly events = this.fold.events;

  addRow(row: unknown, line: number): RowVerdict {
    if (!isObject(row)) return 'invalid_structure';
    if (isHeader(row)) {
      this.fold.header(row);
      if (row.messages === undefined) return 'ok';
      return this.messages(row.messages, line);
    }
    if (Object.hasOwn(row, '$set')) {
      const set = row.$set;
      if (!isObject(set)) return 'invalid_structure';
      return set.messages === undefined ? 'ok' : this.messages(set.messages, line);
    }
    if (Object.hasOwn(row, '$rewindTo')) {
      if (typeof row.$rewindTo !== 'string') return 'invalid_structure';
      this.fold.rewind();
      return 'ok';
    }
    if (!checkMessage(row)) return 'invalid_structure';
    this.fold.message(row, line, () => line);
    return 'ok';
  }

  private messages(list: unknown, line: number): RowVerdict {
    if (!Array.isArray(list)) return 'invalid_structure';
    for (const message of list) {
      if (!checkMessage(message)) return 'invalid_structure';
      this.fold.message(message, line, () => line);
    }
    return 'ok';
  }

  finish(end: RowsEnd): AdapterOutcome {
    return { status: 'ok', transcript: this.fold.build(end.lineCount, end.endsWithNewline, end.salvaged), agent: 'gemini-cli', version: null };
  }
}

/** The first row of a JSONL chat: the header (its `messages`, when present, must be a list). */
function recogniseRow(row: unknown): Recognition {
  if (!isObject(row) || !isHeader(row)) return 'not_mine';
  return row.messages === undefined || Array.isArray(row.messages) ? 'mine' : 'not_mine';
}

export const geminiCliRowsAdapter: RowsAdapter = {
  agent: 'gemini-cli',
  encoding: 'rows',
  recognise: recogniseRow,
  start: () => new GeminiRowsReader(),
};

/** Reads a whole-JSON chat (a pure function of the document and its objects' lines); exported for tests. */
export function readGeminiDocument(document: JsonDocument): AdapterOutcome & { events?: Record<string, number> } {
  const root = document.value;
  if (!isObject(root) || !isHeader(root) || !Array.isArray(root.messages))
    return { status: 'failed', failure: { code: 'invalid_structure', line: document.lineOf([]) ?? 1 } };
  const fold = new GeminiFold();
  fold.header(root);
  const messages = root.messages as unknown[];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    const line = document.lineOf(['messages', i]) ?? document.lineOf([]) ?? 1;
    if (!checkMessage(message)) return { status: 'failed', failure: { code: 'invalid_structure', line } };
    fold.message(message, line, (j) => document.lineOf(['messages', i, 'toolCalls', j]) ?? line);
  }
  const transcript = fold.build(document.lineCount, document.endsWithNewline);
  return { status: 'ok', transcript, agent: 'gemini-cli', version: null, events: fold.events };
}

/**
 * Gemini CLI files that hold a conversation as text only, without the chat recording's ids,
 * times, model or statuses: the history `/chat share <file>.json` and `/chat save` checkpoints
 * write (a list of `{role: "user"|"model", parts}`). Refused `gemini_text_only`; the Markdown
 * twin of the share export is refused by its first line (see GEMINI_MARKDOWN_HEADING).
 */
function isContentHistory(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  return value.every((item) => isObject(item) && (item.role === 'user' || item.role === 'model') && Array.isArray(item.parts));
}

/** The first line of `/chat share <file>.md`: `## USER 🧑‍💻` or `## MODEL ✨` (a heading naming the role). */
export const GEMINI_MARKDOWN_HEADING = /^## (?:USER|MODEL)(?: \S+)?\s*$/;

function recogniseDocument(document: unknown): Recognition {
  if (isContentHistory(document)) return { refuse: 'gemini_text_only' };
  if (!isObject(document) || !isHeader(document)) return 'not_mine';
  return Array.isArray(document.messages) ? 'mine' : 'not_mine';
}

export const geminiCliDocumentAdapter: DocumentAdapter = {
  agent: 'gemini-cli',
  encoding: 'document',
  recognise: recogniseDocument,
  read: (document) => {
    const outcome = readGeminiDocument(document);
    if (outcome.status === 'failed') return outcome;
    return { status: 'ok', transcript: outcome.transcript, agent: outcome.agent, version: outcome.version };
  },
};
