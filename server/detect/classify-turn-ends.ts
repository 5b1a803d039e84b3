import type { TurnEnd, TurnEndApiErrorKind } from '../../shared/turn-ends';
import type { AssistantMessage, TranscriptFile } from '../scan/transcript-model';
import { classifyMessage } from './session-end';

/** One point where control went back to the user, classed. */
export interface TurnEndVerdict {
  end: TurnEnd;
  /** For `api_error`: what the harness's error row says went wrong. */
  apiErrorKind: TurnEndApiErrorKind | null;
  /** The message whose version, model, day and effort the end is counted under: the turn's last model message, else its last harness row. */
  message: AssistantMessage;
  /** The file's last turn end (the session end, when the file is a session). */
  last: boolean;
}

const lastLine = (m: AssistantMessage) => m.lines[m.lines.length - 1]!;

const CUT: ReadonlySet<TurnEnd> = new Set(['cut_while_thinking', 'cut_in_text', 'cut_in_call']);

/** The class of a model message that ended a turn: the session-end class, with max_tokens split by what was cut. */
export function classifyTurnMessage(m: AssistantMessage): TurnEnd {
  if (m.abortedMidStream) return 'interrupted';
  const end = classifyMessage(m);
  if (end !== 'max_tokens') return end;
  if (m.toolUses.length > 0 || m.blockTypes.includes('server_tool_use')) return 'cut_in_call';
  return m.blockTypes.includes('text') ? 'cut_in_text' : 'cut_while_thinking';
}

type Event = { line: number; kind: 'model' | 'harness'; message: AssistantMessage } | { line: number; kind: 'interrupt' | 'prompt' | 'nudge' };

/**
 * Every turn end of one file, in file order. Pure: a function of the transcript model only. The
 * thread judged is the session-end classifier's (a main file's subagent rows are left out; a
 * subagent's own file is judged whole). Control goes back to the user at a typed prompt, an
 * interrupt and the end of the file; what lies between two such points is one turn, and it is
 * classed as the session end is: the latest of an error row, an interrupt or an unanswered retry
 * nudge after the turn's last model message decides, else that message by its stop reason and
 * blocks; except that a message cut at max_tokens followed by nothing but an interrupt keeps its
 * cut class (the cut ended the turn; the user only stopped what had already stopped). A stretch with no model message and no error row (a prompt right after an interrupt)
 * ends no turn.
 */
export function classifyTurnEnds(file: TranscriptFile): TurnEndVerdict[] {
  const thread = file.sidechain ? file.messages : file.messages.filter((m) => !m.sidechain);
  const sideUser = new Set(file.sidechain ? [] : file.sidechainUserLines);
  const events: Event[] = [];
  for (const m of thread) events.push({ line: m.synthetic ? m.lines[0]! : lastLine(m), kind: m.synthetic ? 'harness' : 'model', message: m });
  for (const line of file.interrupts) if (!sideUser.has(line)) events.push({ line, kind: 'interrupt' });
  for (const line of file.prompts) if (!sideUser.has(line)) events.push({ line, kind: 'prompt' });
  for (const n of file.nudges) if (n.sidechain === file.sidechain) events.push({ line: n.line, kind: 'nudge' });
  // Equal lines: the message (or harness row) first, then what the user row says.
  const rank = { model: 0, harness: 0, nudge: 1, interrupt: 2, prompt: 3 } as const;
  events.sort((a, b) => a.line - b.line || rank[a.kind] - rank[b.kind]);

  const ends: TurnEndVerdict[] = [];
  let model: AssistantMessage | null = null;
  let harness: AssistantMessage | null = null;
  // What came after the turn's last model message, the latest of which decides.
  let after: { end: TurnEnd; apiErrorKind: TurnEndApiErrorKind | null } | null = null;
  const close = (interrupt: boolean) => {
    const message = model ?? harness;
    if (message !== null) {
      const own = model === null ? null : classifyTurnMessage(model);
      // A reply cut at max_tokens that nothing followed but the user's interrupt ended the turn itself: the
      // user stopped an agent that had already stopped (FORMAT.md, "Further facts": the cut while thinking).
      const cutThenInterrupted = interrupt && after === null && own !== null && CUT.has(own);
      const verdict = interrupt && !cutThenInterrupted ? { end: 'interrupted' as const, apiErrorKind: null } : (after ?? { end: own!, apiErrorKind: null });
      ends.push({ ...verdict, message, last: false });
    }
    model = harness = after = null;
  };
  for (const e of events) {
    if (e.kind === 'model') {
      model = e.message;
      after = null;
    } else if (e.kind === 'harness') {
      harness = e.message;
      const kind = e.message.retryExhausted ? 'retry_exhausted' : (e.message.apiErrorKind ?? 'other');
      after = e.message.retryExhausted ? { end: 'lost_call', apiErrorKind: null } : { end: 'api_error', apiErrorKind: kind };
    } else if (e.kind === 'nudge') {
      if (model !== null || harness !== null) after = { end: 'lost_call', apiErrorKind: null };
    } else close(e.kind === 'interrupt');
  }
  close(false);
  if (ends.length > 0) ends[ends.length - 1]!.last = true;
  return ends;
}
