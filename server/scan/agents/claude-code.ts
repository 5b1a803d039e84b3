import { TranscriptBuilder } from '../build-transcript';
import { sniffFirstRow } from '../format-sniff';
import type { AdapterContext, RowsAdapter, RowsReader } from './adapter';

/**
 * Claude Code's JSONL transcript (and a stream-json capture without partial messages, read as
 * one): the TranscriptBuilder, unchanged. It claims any first row format-sniff.ts does not name
 * as another tool's; a file in which no row is one Claude Code writes still fails `unknown_format`.
 */
export const claudeCodeAdapter: RowsAdapter = {
  agent: 'claude-code',
  encoding: 'rows',
  recognise: (row) => (sniffFirstRow(row).kind === 'read' ? 'mine' : 'not_mine'),
  start(context: AdapterContext): RowsReader {
    const builder = new TranscriptBuilder(context.observers, context.alsoKnownRowTypes);
    let firstLine = 0;
    return {
      addRow(row, line) {
        if (firstLine === 0) firstLine = line;
        return builder.addRow(row, line);
      },
      finish({ lineCount, endsWithNewline, salvaged }) {
        // Rows were read but none is a row Claude Code writes: nothing was understood, so nothing is clean.
        if (firstLine > 0 && builder.recognisedRows === 0) return { status: 'failed', failure: { code: 'unknown_format', line: firstLine } };
        const transcript = builder.build(lineCount, endsWithNewline, salvaged);
        const version = transcript.messages.find((m) => m.version !== null)?.version ?? null;
        return { status: 'ok', transcript, agent: 'claude-code', version };
      },
    };
  },
};
