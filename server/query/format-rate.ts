import type { Interval } from '../../shared/api-schemas';
import { NOT_MEASURABLE_TEXT, type Opportunity } from '../../shared/denominators';
import { OPPORTUNITY_WORDS } from '../../shared/format/opportunity-words';

/** The label for an opportunity name as the API spells it (tool-use turns for anything unknown); the words are shared/format's. */
export function opportunityLabel(opportunity: string): string {
  return OPPORTUNITY_WORDS[opportunity as Opportunity] ?? OPPORTUNITY_WORDS.tool_use_turns;
}

/** "not measurable (stop reason not recorded)" for a reason code; the code itself if unknown. */
export function notMeasurableText(reason: string): string {
  return NOT_MEASURABLE_TEXT[reason] ?? `not measurable (${reason})`;
}

/**
 * A code's figure in one cell of a text table: `count (rate‰)`, or, where it has no
 * opportunities, `count (not measurable (…))` — never a rate of 0‰ over nothing.
 */
export function formatCodeFigure(c: { count: number; per_1000_opportunities: Interval | null; not_measurable: string | null }, digits = 2): string {
  if (c.not_measurable !== null || c.per_1000_opportunities === null) return `${c.count} (${notMeasurableText(c.not_measurable ?? 'no_messages')})`;
  return `${c.count} (${c.per_1000_opportunities.rate.toFixed(digits)}‰)`;
}

/** The same with the 95% interval: `1.23‰ [0.45–2.67]`, or the not-measurable sentence. */
export function formatRateWithInterval(c: { per_1000_opportunities: Interval | null; not_measurable: string | null }, digits = 2): string {
  const i = c.per_1000_opportunities;
  if (c.not_measurable !== null || i === null) return notMeasurableText(c.not_measurable ?? 'no_messages');
  return `${i.rate.toFixed(digits)}‰ [${i.low.toFixed(digits)}–${i.high.toFixed(digits)}]`;
}

/** Coverage of recorded stop reasons as a percentage, `–` without messages. */
export function formatCoverage(stopKnown: number, messages: number): string {
  if (messages <= 0) return '–';
  if (stopKnown >= messages) return '100%';
  if (stopKnown <= 0) return '0%';
  // Never rounded to 0% or 100% when some, but not all, are known.
  return `${Math.min(99.9, Math.max(0.1, (100 * stopKnown) / messages)).toFixed(1)}%`;
}
