import { describe, expect, it } from 'vitest';
import { missingToolUseBlock } from '../../server/detect/missing-tool-use-block';
import type { AssistantMessage } from '../../server/scan/transcript-model';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('missing_tool_use_block fixtures', () => detectorFixtureTests('missing_tool_use_block'));

const message = (over: Partial<AssistantMessage>): AssistantMessage => ({
  index: 0, messageId: 'm', lines: [4, 9], stopReason: 'tool_use', blockTypes: ['text'], toolUses: [],
  signedThinking: false, model: null, synthetic: false, day: null, version: null, sidechain: false, ...over,
});

describe('missing_tool_use_block rule', () => {
  it('flags a tool_use stop with no call and cites every row', () => {
    const found = missingToolUseBlock.detect({ messages: [message({})], toolResults: [], lineCount: 9, endsWithNewline: true });
    expect(found.map((f) => f.sourceLines)).toEqual([[4, 9]]);
  });
  it.each([
    ['an unknown stop reason', { stopReason: null }],
    ['an end_turn stop', { stopReason: 'end_turn' }],
    ['a message that has its call', { toolUses: [{ id: 't', emptyInput: false, line: 9 }] }],
    ['a harness-written API error message', { synthetic: true }],
  ])('ignores %s', (_label, over) => {
    expect(missingToolUseBlock.detect({ messages: [message(over)], toolResults: [], lineCount: 9, endsWithNewline: true })).toEqual([]);
  });
});
