import { describe, expect, it } from 'vitest';
import { emptyToolInputWithErrorResult } from '../../server/detect/empty-tool-input-with-error-result';
import type { AssistantMessage, TranscriptFile } from '../../server/scan/transcript-model';
import { detectorFixtureTests } from '../support/detector-fixtures';
import { messageOf, transcriptOf } from '../support/model-builders';

describe('empty_tool_input_with_error_result fixtures', () => detectorFixtureTests('empty_tool_input_with_error_result'));

const call = (id: string, emptyInput: boolean, line: number): AssistantMessage =>
  messageOf({
    messageId: 'm' + line,
    lines: [line],
    stopReason: 'tool_use',
    blockTypes: ['tool_use'],
    toolUses: [{ id, emptyInput, line, name: 'Read', unparsed: null }],
  });
const file = (messages: AssistantMessage[], results: TranscriptFile['toolResults']): TranscriptFile => transcriptOf(messages, results);

describe('empty_tool_input_with_error_result rule', () => {
  it('pairs the call with the first error result after it', () => {
    const found = emptyToolInputWithErrorResult.detect(
      file(
        [call('a', true, 3)],
        [
          { toolUseId: 'a', isError: true, line: 1, errorKind: 'missing_parameter', validation: true },
          { toolUseId: 'a', isError: true, line: 7, errorKind: 'missing_parameter', validation: true },
          { toolUseId: 'a', isError: true, line: 9, errorKind: 'missing_parameter', validation: true },
        ],
      ),
    );
    expect(found.map((f) => f.sourceLines)).toEqual([[3, 7]]);
  });
  it('ignores a successful result and a result for another call', () => {
    expect(
      emptyToolInputWithErrorResult.detect(
        file(
          [call('a', true, 3)],
          [
            { toolUseId: 'a', isError: false, line: 5, errorKind: null, validation: false },
            { toolUseId: 'b', isError: true, line: 6, errorKind: 'missing_parameter', validation: true },
          ],
        ),
      ),
    ).toEqual([]);
  });
  it('ignores a call with arguments even when it errs', () => {
    expect(
      emptyToolInputWithErrorResult.detect(
        file([call('a', false, 3)], [{ toolUseId: 'a', isError: true, line: 5, errorKind: 'missing_parameter', validation: true }]),
      ),
    ).toEqual([]);
  });
});
