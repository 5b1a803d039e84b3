import { type AssistantMessage, emptyTranscript, type ToolResultFact, type TranscriptFile } from '../../server/scan/transcript-model';

/** A transcript model with neutral defaults, for rule-level detector tests. */
export function transcriptOf(messages: AssistantMessage[], toolResults: ToolResultFact[] = []): TranscriptFile {
  return { ...emptyTranscript(), messages, toolResults, lineCount: 100 };
}

export function messageOf(over: Partial<AssistantMessage>): AssistantMessage {
  return {
    index: 0,
    messageId: 'm',
    lines: [1],
    stopReason: 'end_turn',
    blockTypes: ['text'],
    toolUses: [],
    signedThinking: false,
    model: null,
    synthetic: false,
    day: null,
    version: null,
    sidechain: false,
    leak: null,
    retryExhausted: false,
    damaged: false,
    effort: null,
    abortedMidStream: false,
    apiErrorKind: null,
    ...over,
  };
}
