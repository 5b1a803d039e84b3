import type { AssistantMessage, TranscriptFile } from '../scan/transcript-model';

/** The model message a harness row follows: the last non-synthetic message starting before `line` (same thread first). */
export function messageBefore(file: TranscriptFile, line: number, sidechain?: boolean): AssistantMessage | null {
  let any: AssistantMessage | null = null;
  let same: AssistantMessage | null = null;
  for (const m of file.messages) {
    if (m.lines[0]! >= line) break;
    if (m.synthetic) continue;
    any = m;
    if (sidechain === undefined || m.sidechain === sidechain) same = m;
  }
  return same ?? any;
}

/** The failure shape of a message a retry marker follows. */
export function shapeOf(m: AssistantMessage | null): 'missing_tool_use_block' | 'text_leaked_tool_call' | 'unexplained' {
  if (m === null || m.toolUses.length > 0) return 'unexplained';
  if (m.stopReason === 'tool_use') return 'missing_tool_use_block';
  if (m.leak !== null) return 'text_leaked_tool_call';
  return 'unexplained';
}

/** First line of the message after `m` (Infinity for the last). */
export function nextMessageStart(file: TranscriptFile, m: AssistantMessage): number {
  return file.messages[m.index + 1]?.lines[0] ?? Number.POSITIVE_INFINITY;
}
