import type { Collector, Detector } from './detector';

/** Only thinking, in any number of rows: a message whose blocks are all of these types was cut before it said or called anything. */
const THINKING = new Set(['thinking', 'redacted_thinking']);

/** Per message index: the last output token count a row recorded (a sane non-negative integer only). */
type OutputTokens = Map<number, number>;

/**
 * The reply hit max_tokens while still thinking: every block of the message is thinking or
 * redacted thinking and its stop reason is max_tokens. Claude Code writes no error and no retry
 * row for it (FORMAT.md, "Further facts"): the turn just stops, or is asked again without a word.
 */
export const thinkingCutAtMaxTokens: Detector<'transcript', OutputTokens> = {
  code: 'thinking_cut_at_max_tokens',
  source: 'transcript',
  collect(): Collector<'transcript', OutputTokens> {
    const tokens: OutputTokens = new Map();
    return {
      assistant(_blocks, message, row) {
        const m = row.message as { usage?: unknown };
        const usage = m.usage;
        if (usage === null || typeof usage !== 'object') return;
        const out = (usage as { output_tokens?: unknown }).output_tokens;
        if (typeof out === 'number' && Number.isSafeInteger(out) && out >= 0) tokens.set(message.index, out);
      },
      facts: () => tokens,
    };
  },
  detect(file, tokens) {
    return file.messages
      .filter((m) => m.stopReason === 'max_tokens' && !m.synthetic && m.blockTypes.length > 0 && m.blockTypes.every((t) => THINKING.has(t)))
      .map((m) => {
        // Signed thinking is every finding's own field (message.signedThinking); the token count is this rule's detail.
        const out = tokens.get(m.index);
        const details: Record<string, number> = out === undefined ? {} : { output_tokens: out };
        return { code: 'thinking_cut_at_max_tokens' as const, message: m, sourceLines: [...m.lines], details };
      });
  },
};
