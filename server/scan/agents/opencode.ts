import { safeModelId, safeVersion } from '../../../shared/metadata-patterns';
import { type AssistantMessage, emptyTranscript, type ToolResultFact, type TranscriptFile } from '../transcript-model';
import type { AdapterFailure, AdapterOutcome, DocumentAdapter, JsonDocument } from './adapter';
import { addBlockType, isEmptyObject, isObject, type Json, modelMessage } from './shared-facts';

/** The marker OpenCode writes into the `invalid` tool's input when a call's arguments did not parse (a fixed string, matched, never kept). */
const JSON_PARSE_FAILED = 'JSON parsing failed';
/** Fixed openings of OpenCode's `state.error` for a call that did not run by someone's decision (SOURCES.md), matched, never kept. */
const ABORTED = 'Tool execution aborted';
const RULE_DENIAL = 'The user has specified a rule which prevents';
const USER_REJECTED = 'The user rejected permission';
const INVALID_ARGUMENTS = /^The [A-Za-z0-9_.-]{1,64} tool was called with invalid arguments/;

/** An object's `time.created`: epoch milliseconds, when they are a plausible time (2000 to the end of 2099, safeTimestamp's range). */
function createdOf(info: Json): number | null {
  const ms = isObject(info.time) ? info.time.created : null;
  return typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 946684800000 && ms < 4102444800000 ? ms : null;
}

/** A plausible time as an ISO timestamp: toISOString of one is already in safeTimestamp's canonical form. */
const isoOf = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const DAY_MS = 86_400_000;
/** The UTC days of times seen, kept per thread: one Date per day rather than per message (a bound keeps them few). */
const days = new Map<number, string>();
/** A plausible time's UTC day, `YYYY-MM-DD` (what utcDay reads from its ISO timestamp). */
function dayOf(ms: number | null): string | null {
  if (ms === null) return null;
  const n = Math.floor(ms / DAY_MS);
  let day = days.get(n);
  if (day === undefined) {
    day = new Date(n * DAY_MS).toISOString().slice(0, 10);
    if (days.size >= 4096) days.clear();
    days.set(n, day);
  }
  return day;
}

/**
 * OpenCode's session as `opencode export` prints it: `{info, messages: [{info, parts}]}` (one
 * pretty-printed JSON document; SOURCES.md). A pure function of the document and the lines of its
 * objects' opening braces, so a document rebuilt from OpenCode's database (issue 38: `message.data`
 * and `part.data` with their ids put back) reads the same.
 *
 * The model: one message per assistant `messages[i]` (line: its opening brace, then each tool
 * part's), model `info.modelID`, day `info.time.created`; no stop reason (OpenCode's `finish` is not
 * Anthropic's); `info.error.name` `MessageAbortedError` marks it aborted mid-stream (no rate, no
 * finding). Each `tool` part is one call and, when its `state.status` is `completed` or `error`, its
 * own result on the same line (`pending`/`running`: no result). The `invalid` tool whose input says
 * `JSON parsing failed` is the rewrite of a call whose arguments did not parse: a call with unparsed
 * input (finding `unparseable_tool_input`), its result an error. Errors saying the call was aborted
 * (an interrupt), denied by a rule or rejected by the user, or that its arguments failed the schema
 * (`validation`) are diagnostics. Kept: none of the text, input, output, error, metadata, title,
 * directory or summary; tool names in memory only.
 */
export function openCodeTranscript(document: JsonDocument): AdapterOutcome {
  const fail = (line: number | null): AdapterOutcome => ({ status: 'failed', failure: { code: 'invalid_structure', line } satisfies AdapterFailure });
  const root = document.value;
  if (!isObject(root) || !isObject(root.info) || !Array.isArray(root.messages)) return fail(document.lineOf([]));
  const version = safeVersion(root.info.version);
  const file: TranscriptFile = { ...emptyTranscript(), agent: 'opencode', lineCount: document.lineCount, endsWithNewline: document.endsWithNewline };
  if (typeof root.info.id === 'string') file.sessionId = root.info.id;
  // The first and last times as numbers, made timestamps once at the end.
  let first: number | null = null;
  let last: number | null = null;
  const stamp = (at: number | null) => {
    if (at === null) return;
    if (first === null || at < first) first = at;
    if (last === null || at > last) last = at;
  };
  stamp(createdOf(root.info));
  for (let i = 0; i < root.messages.length; i++) {
    const entry = root.messages[i];
    const line = document.lineOf(['messages', i]);
    if (!isObject(entry) || !isObject(entry.info) || !Array.isArray(entry.parts) || line === null) return fail(line);
    const { info, parts } = entry;
    if (typeof info.role !== 'string') return fail(document.lineOf(['messages', i, 'info']) ?? line);
    const at = createdOf(info);
    stamp(at);
    if (info.role !== 'assistant') {
      if (info.role === 'user') file.prompts.push(line);
      continue;
    }
    if (typeof info.id !== 'string' || info.id === '') return fail(document.lineOf(['messages', i, 'info']) ?? line);
    const message: AssistantMessage = modelMessage(file.messages.length, info.id, { model: safeModelId(info.modelID), day: dayOf(at), version, effort: null });
    message.lines.push(line);
    if (isObject(info.error) && info.error.name === 'MessageAbortedError') message.abortedMidStream = true;
    file.messages.push(message);
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j];
      const partLine = document.lineOf(['messages', i, 'parts', j]);
      if (!isObject(part) || typeof part.type !== 'string' || partLine === null) return fail(partLine ?? line);
      addBlockType(message, part.type === 'tool' ? 'tool_use' : part.type === 'reasoning' ? 'thinking' : part.type);
      if (part.type !== 'tool') continue;
      const { state } = part;
      if (typeof part.tool !== 'string' || typeof part.callID !== 'string' || !isObject(state) || typeof state.status !== 'string') return fail(partLine);
      const rewritten =
        part.tool === 'invalid' && isObject(state.input) && typeof state.input.error === 'string' && state.input.error.includes(JSON_PARSE_FAILED);
      // Provider call ids repeat across messages (`functions.bash:1`): the part's place pairs the call with its inline result.
      const id = `part:${i}:${j}`;
      message.toolUses.push({
        id,
        emptyInput: isEmptyObject(state.input),
        line: partLine,
        name: rewritten && typeof (state.input as Json).tool === 'string' ? ((state.input as Json).tool as string) : part.tool,
        unparsed: rewritten ? { len: null, rawChars: null, stop: null } : null,
      });
      message.lines.push(partLine);
      if (state.status !== 'completed' && state.status !== 'error') continue;
      const result: ToolResultFact = {
        toolUseId: id,
        isError: rewritten,
        line: partLine,
        errorKind: rewritten ? 'other' : null,
        missingParameter: null,
        validation: false,
      };
      if (state.status === 'error') {
        const text = typeof state.error === 'string' ? state.error : '';
        result.isError = true;
        result.errorKind = 'other';
        if (text.startsWith(ABORTED)) {
          result.errorKind = 'user_rejected';
          file.interrupts.push(partLine);
        } else if (text.includes(RULE_DENIAL)) result.errorKind = 'permission_denied';
        else if (text.includes(USER_REJECTED)) result.errorKind = 'user_rejected';
        else if (INVALID_ARGUMENTS.test(text)) result.validation = true;
      }
      file.toolResults.push(result);
    }
  }
  file.modelMessages = file.messages.length;
  file.firstTimestamp = isoOf(first);
  file.lastTimestamp = isoOf(last);
  return { status: 'ok', transcript: file, agent: 'opencode', version };
}

export const openCodeAdapter: DocumentAdapter = {
  agent: 'opencode',
  encoding: 'document',
  recognise: (doc) => (isObject(doc) && isObject(doc.info) && Array.isArray(doc.messages) && Object.hasOwn(doc.info, 'projectID') ? 'mine' : 'not_mine'),
  read: (document) => openCodeTranscript(document),
};
