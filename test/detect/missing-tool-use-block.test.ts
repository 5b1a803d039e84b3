import { describe, expect, it } from 'vitest';
import { missingToolUseBlock } from '../../server/detect/missing-tool-use-block';
import type { AssistantMessage } from '../../server/scan/transcript-model';
import { detectorFixtureTests } from '../support/detector-fixtures';
import { messageOf, transcriptOf } from '../support/model-builders';

describe('missing_tool_use_block fixtures', () => detectorFixtureTests('missing_tool_use_block'));

const message = (over: Partial<AssistantMessage>): AssistantMessage => messageOf({ lines: [4, 9], stopReason: 'tool_use', ...over });

describe('missing_tool_use_block rule', () => {
  it('flags a tool_use stop with no call and cites every row', () => {
    const found = missingToolUseBlock.detect(transcriptOf([message({})]));
    expect(found.map((f) => f.sourceLines)).toEqual([[4, 9]]);
  });
  it.each([
    ['an unknown stop reason', { stopReason: null }],
    ['an end_turn stop', { stopReason: 'end_turn' }],
    ['a message that has its call', { toolUses: [{ id: 't', emptyInput: false, line: 9, name: 'Read', unparsed: null }] }],
    ['a harness-written API error message', { synthetic: true }],
  ])('ignores %s', (_label, over) => {
    expect(missingToolUseBlock.detect(transcriptOf([message(over)]))).toEqual([]);
  });
});
