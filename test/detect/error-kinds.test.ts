import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { PAIRING_ERRORS, pairingErrorKind } from '../../server/detect/api-tool-pairing-error';
import { ERROR_KINDS, errorKindOf, isValidationRefusal } from '../../server/scan/harness-markers';
import { fixturesRoot } from '../support/detector-fixtures';

// Every wording below is quoted from real files or the issues that describe them (FORMAT.md §4 and §7,
// TAXONOMY §0, T5, T5u, T10); a `…` stands where the real text went on with payload.
const REAL: Array<[string, string, string | null, string | null]> = [
  ['missing_parameter', 'InputValidationError: Task failed due to the following issue:\nThe required parameter `prompt` is missing', null, null],
  [
    'missing_parameter',
    '<tool_use_error>InputValidationError: TaskCreate failed due to the following issue:\nThe required parameter `subject` is missing</tool_use_error>',
    'InputValidationError: [\n  {\n    "expected": "string",\n    "code": "invalid_type",\n    "path": [\n      "subject"\n    ],\n    "message": "Invalid input: expected string, received undefined"\n  }\n]',
    null,
  ],
  [
    'schema_not_loaded',
    "<tool_use_error>InputValidationError: Monitor failed due to the following issues:\nThe required parameter `description` is missing\nThe required parameter `command` is missing\nAn unexpected parameter `query` was provided\n\nThis tool's schema was not sent to the API - it was not in the discovered-tool set derived from message history. …</tool_use_error>",
    null,
    null,
  ],
  [
    'no_such_tool',
    '<tool_use_error>Error: No such tool available: mcp__plugin_playwright__browser_take_screenshot</tool_use_error>',
    'Error: No such tool available: …',
    null,
  ],
  ['cancelled_sibling', '<tool_use_error>Sibling tool call errored</tool_use_error>', 'Error: Sibling tool call errored', null],
  ['cancelled_sibling', 'Cancelled: parallel tool call Bash(npm test) errored', null, null],
  [
    'permission_denied',
    'Permission for this action was denied by the Claude Code auto mode classifier. Reason: …',
    'Error: Permission for this action was denied by the Claude Code auto mode classifier. Reason: …',
    null,
  ],
  ['permission_denied', 'Permission to use Bash with command cd "E:\\x" && python run.py has been denied.', null, null],
  ['permission_denied', 'Auto mode is temporarily unavailable, so auto mode cannot determine the safety of Bash.', null, 'automode-unavailable'],
  ['permission_denied', 'This command requires approval', null, null],
  ['permission_denied', "Claude requested permissions to write to /home/u/a.ts, but you haven't granted it yet.", null, null],
  [
    'user_rejected',
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
    'User rejected tool use',
    null,
  ],
  ['user_rejected', 'anything', null, 'user-rejected'],
  ['hook_blocked', 'PreToolUse:Bash hook error: [python3 guard.py]: blocked', null, null],
  [
    'other',
    '<tool_use_error>InputValidationError: Grep failed due to the following issue:\nAn unexpected parameter `file_path` was provided</tool_use_error>',
    null,
    null,
  ],
  [
    'other',
    '<tool_use_error>InputValidationError: Read was called with input that could not be parsed as JSON. You sent (first 89 of 89 bytes) …</tool_use_error>',
    'InputValidationError: JSON parse failed (89 bytes)',
    null,
  ],
  ['other', '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>', null, null],
  ['other', 'Exit code 1\n…', 'Error: Exit code 1', null],
  ['other', 'Blocked: sleep 30 followed by: npm test', null, null],
];

describe('error kind of a refused call, by fixed patterns', () => {
  it.each(REAL)('%s: %j', (kind, text, toolUseResult, denial) => {
    expect(errorKindOf(text, toolUseResult, denial)).toBe(kind);
  });
  it('covers every kind with a real wording', () => {
    expect(new Set(REAL.map((r) => r[0]))).toEqual(new Set(ERROR_KINDS));
  });
  it('does not match a wording quoted inside other text', () => {
    expect(errorKindOf('Exit code 1\necho "Permission for this action was denied by the Claude Code auto mode classifier"', null, null)).toBe('other');
    expect(errorKindOf('grep output: No such tool available', null, null)).toBe('other');
  });
  it('tells validation refusals from other errors', () => {
    expect(isValidationRefusal('<tool_use_error>InputValidationError: Grep failed …</tool_use_error>')).toBe(true);
    expect(isValidationRefusal('Exit code 1')).toBe(false);
    expect(isValidationRefusal(null)).toBe(false);
  });
});

describe('API 400 pairing errors, with and without backticks (the exact real wordings)', () => {
  const kind = (text: string) => {
    const i = pairingErrorKind(text);
    return i === null ? null : PAIRING_ERRORS[i]![0];
  };
  it.each([
    [
      'ids_without_results',
      'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.17: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01. Each `tool_use` block must have a corresponding `tool_result` block in the next message."}}',
    ],
    ['ids_without_results', 'API Error: 400 messages.17: tool_use ids were found without tool_result blocks immediately after: toolu_01.'],
    [
      'duplicate_tool_use_ids',
      'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.1.content.1: `tool_use` ids must be unique"}}',
    ],
    ['duplicate_tool_use_ids', 'API Error: 400 messages.1.content.1: tool_use ids must be unique'],
    [
      'input_not_dictionary',
      'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.61.content.0.tool_use.input: Input should be a valid dictionary"}}',
    ],
    ['input_not_dictionary', 'API Error: 400 messages.61.content.0.`tool_use.input`: Input should be a valid dictionary'],
    ['unexpected_tool_use_id', 'API Error: 400 messages.3.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01'],
    ['unexpected_tool_use_id', 'API Error: 400 messages.3.content.0: unexpected tool_use_id found in tool_result blocks: toolu_01'],
    ['input_not_object', 'API Error: 400 Tool use input must be a string or object'],
  ])('%s: %s', (want, text) => {
    expect(kind(text)).toBe(want);
  });
  it('needs the 400 prefix', () => {
    expect(kind('messages.1.content.1: `tool_use` ids must be unique')).toBeNull();
  });
});

describe('call diagnostics on the fixtures (not findings)', () => {
  const diag = (dir: string, file: string) => {
    const a = analyseFile(join(fixturesRoot, 'detectors', dir, file));
    if (a.status !== 'ok') throw new Error('did not scan');
    const sum = { compaction_split: 0, call_open_at_end: 0, rejected: {} as Record<string, number> };
    for (const d of a.diagnostics ?? []) {
      sum.compaction_split += d.compactionSplits;
      sum.call_open_at_end += d.callsOpenAtEnd;
      for (const [k, n] of Object.entries(d.rejectedToolInput)) sum.rejected[k] = (sum.rejected[k] ?? 0) + n;
    }
    return sum;
  };
  it.each([
    ['negative-compaction-with-progress.jsonl', { compaction_split: 1, call_open_at_end: 0, rejected: {} }],
    ['negative-compaction-without-progress.jsonl', { compaction_split: 1, call_open_at_end: 0, rejected: {} }],
    ['negative-open-at-end-with-progress.jsonl', { compaction_split: 0, call_open_at_end: 1, rejected: {} }],
    ['negative-open-at-end-sibling-result-after.jsonl', { compaction_split: 0, call_open_at_end: 1, rejected: {} }],
    ['negative-open-at-end-synthetic-after.jsonl', { compaction_split: 0, call_open_at_end: 1, rejected: {} }],
    ['negative-result-written-before-call.jsonl', { compaction_split: 0, call_open_at_end: 0, rejected: {} }],
    ['positive-call-without-result.jsonl', { compaction_split: 0, call_open_at_end: 0, rejected: {} }],
    ['positive-compaction-after-next-message.jsonl', { compaction_split: 0, call_open_at_end: 0, rejected: {} }],
  ])('orphan_tool_use/%s', (file, want) => {
    expect(diag('orphan_tool_use', file)).toEqual(want);
  });
  it('counts a validation refusal of non-empty input by kind, and neither {} calls nor unparseable input', () => {
    expect(diag('unparseable_tool_input', 'transcript-negative-ordinary-input.jsonl').rejected).toEqual({ other: 1 });
    expect(diag('unparseable_tool_input', 'transcript-positive-with-result.jsonl').rejected).toEqual({});
    expect(diag('empty_tool_input_with_error_result', 'positive-kind-missing-parameter.jsonl').rejected).toEqual({});
  });
});
