import type { Collector, Detector } from './detector';
import { messageBefore } from './linked-message';

/**
 * 400 errors about tool_use/tool_result pairing or tool input shape, with the kind reported for
 * each. Claude Code stores the raw API text, which puts backticks around names in some wordings
 * ("`tool_use` ids were found without `tool_result` blocks") and none in others ("tool_use.input:
 * Input should be a valid dictionary"); copies in issue threads lose them. So backticks are
 * removed from the text before matching, and the phrases here carry none.
 */
export const PAIRING_ERRORS = [
  ['ids_without_results', 'tool_use ids were found without tool_result blocks'],
  ['unexpected_tool_use_id', 'unexpected tool_use_id'],
  ['duplicate_tool_use_ids', 'tool_use ids must be unique'],
  ['input_not_object', 'Tool use input must be a string or object'],
  ['input_not_dictionary', 'tool_use.input: Input should be a valid dictionary'],
] as const;

/** The index into PAIRING_ERRORS of a harness-written text, or null when it is not one of them. */
export function pairingErrorKind(text: string): number | null {
  if (!text.startsWith('API Error: 400')) return null;
  const plain = text.includes('`') ? text.replaceAll('`', '') : text;
  const i = PAIRING_ERRORS.findIndex(([, phrase]) => plain.includes(phrase));
  return i < 0 ? null : i;
}

/** Per harness-written message (synthetic: `<synthetic>` model or isApiErrorMessage), the pairing error its text reports first. */
type PairingErrors = Map<number, number>;

/** The API refused the conversation: a 400 about tool_use/tool_result pairing or input shape. */
export const apiToolPairingError: Detector<'transcript', PairingErrors> = {
  code: 'api_tool_pairing_error',
  source: 'transcript',
  collect(): Collector<'transcript', PairingErrors> {
    const kinds: PairingErrors = new Map();
    return {
      assistant(blocks, message) {
        // Only text the harness wrote: a model that quotes the error is not the error.
        if (!message.synthetic || kinds.has(message.index)) return;
        for (const block of blocks) {
          if (block.type !== 'text' || typeof block.text !== 'string') continue;
          const kind = pairingErrorKind(block.text);
          if (kind !== null) {
            kinds.set(message.index, kind);
            return;
          }
        }
      },
      facts: () => kinds,
    };
  },
  detect(file, kinds) {
    return file.messages
      .filter((m) => m.synthetic && kinds.has(m.index))
      .map((m) => ({
        code: 'api_tool_pairing_error' as const,
        message: messageBefore(file, m.lines[0]!, m.sidechain) ?? m,
        sourceLines: [...m.lines],
        details: { kind: PAIRING_ERRORS[kinds.get(m.index)!]![0] },
      }));
  },
};
