import type { AssistantMessage, ToolResultFact, ToolUseFact, TranscriptFile } from '../scan/transcript-model';

/**
 * Pairing calls with their results, by id over the whole file, never by position: real files
 * (2.1.79-2.1.168) sometimes write a result row before the row of its own call. A call's result
 * is the first one after the call, or else the last one before it.
 */
export class ResultIndex {
  private readonly byId = new Map<string, ToolResultFact[]>();

  constructor(results: readonly ToolResultFact[]) {
    for (const r of results) {
      const list = this.byId.get(r.toolUseId);
      if (list) list.push(r);
      else this.byId.set(r.toolUseId, [r]);
    }
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The result answering `call` (among those `only` accepts): the first after it, else the last before it; null when none. */
  of(call: ToolUseFact, only?: (r: ToolResultFact) => boolean): ToolResultFact | null {
    if (call.id === '') return null;
    const list = this.byId.get(call.id);
    if (!list) return null;
    let before: ToolResultFact | null = null;
    for (const r of list) {
      if (only && !only(r)) continue;
      if (r.line > call.line) return r;
      before = r;
    }
    return before;
  }
}

const indexes = new WeakMap<TranscriptFile, ResultIndex>();

/** The file's results by id, built once per file and shared by every rule (a pure function of the file). */
export function resultsOf(file: TranscriptFile): ResultIndex {
  let index = indexes.get(file);
  if (!index) indexes.set(file, (index = new ResultIndex(file.toolResults)));
  return index;
}

/** What became of a call that has no result anywhere in its file. */
export type UnansweredFate =
  /** The user interrupted or rejected it (a marker row before the next message). */
  | 'interrupted'
  /** Auto-compaction split it from its result: a compact_boundary before the next model message. */
  | 'compaction_split'
  /** Nothing but non-model rows (progress, attachments, system rows, titles…) or siblings' results follow it. */
  | 'open_at_end'
  /** Salvage mode: a dropped torn row may have been its result. */
  | 'damaged'
  /** None of the above: a lost call. */
  | 'orphan';

/** The file's model messages (harness-written ones left out), with what the fate of an unanswered call needs. */
export class MessageTimeline {
  /** First line of each model message, ascending. */
  private readonly starts: number[];
  /** Last line of any model row, per message index. */
  private readonly lastLineOf = new Map<number, number>();
  private readonly modelMessages: AssistantMessage[];

  constructor(private readonly file: TranscriptFile) {
    this.modelMessages = file.messages.filter((m) => !m.synthetic);
    this.starts = this.modelMessages.map((m) => m.lines[0]!).sort((a, b) => a - b);
    for (const m of this.modelMessages) this.lastLineOf.set(m.index, m.lines[m.lines.length - 1]!);
  }

  /** First line of the next model message that starts after `line` (Infinity when none). */
  nextStartAfter(line: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! <= line) lo = mid + 1;
      else hi = mid;
    }
    return this.starts[lo] ?? Number.POSITIVE_INFINITY;
  }

  /** No row of another model message stands after `line`. */
  nothingModelAfter(message: AssistantMessage, line: number): boolean {
    for (const m of this.modelMessages) if (m !== message && this.lastLineOf.get(m.index)! > line) return false;
    return true;
  }

  fateOf(message: AssistantMessage, call: ToolUseFact): UnansweredFate {
    if (message.damaged) return 'damaged';
    const next = this.nextStartAfter(call.line);
    if (this.file.interrupts.some((l) => l > call.line && l < next)) return 'interrupted';
    if (this.file.compactBoundaries.some((l) => l > call.line && l < next)) return 'compaction_split';
    if (next === Number.POSITIVE_INFINITY || message.index === this.file.messages.length - 1 || this.nothingModelAfter(message, call.line))
      return 'open_at_end';
    return 'orphan';
  }
}

/** Per call of a model message: its result, or the fate of a call that has none. */
export function* callsOf(file: TranscriptFile): Generator<{ message: AssistantMessage; call: ToolUseFact }> {
  for (const message of file.messages) {
    if (message.synthetic) continue;
    for (const call of message.toolUses) yield { message, call };
  }
}
