import type { Opportunity } from '../denominators';

/** Plain words for what a code's rate is over, for cards, tooltips and the glossary. */
export const OPPORTUNITY_WORDS: Record<Opportunity, string> = {
  tool_use_turns: 'tool-use turns',
  stop_known_messages: 'messages with a recorded stop reason',
  assistant_messages: 'model messages',
  capture_messages: 'messages from stream captures',
};

export function opportunityWords(opportunity: string): string {
  return (OPPORTUNITY_WORDS as Record<string, string>)[opportunity] ?? opportunity;
}
