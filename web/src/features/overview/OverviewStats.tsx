import type { SummaryResponse } from '../../../../shared/api-schemas';
import { NOT_MEASURABLE_TEXT } from '../../../../shared/denominators';
import { opportunityWords } from '../../../../shared/format/opportunity-words';
import { formatCell } from '../../charts/scale';
import { StatCard } from '../../components/ui';
import { codeLabel, formatCount, formatDay } from '../../lib/format';

/** The headline figures: files, messages, tool-use turns, and each code with findings (all of them when asked). */
export function OverviewStats({ summary: s, showAll, onShowAll }: { summary: SummaryResponse; showAll: boolean; onShowAll: () => void }) {
  const measurable = s.codes.filter((c) => c.not_measurable === null);
  const notMeasurable = s.codes.filter((c) => c.not_measurable !== null);
  const quiet = measurable.filter((c) => c.count === 0);
  return (
    <>
      <div className="stats">
        <StatCard
          testId="stat-files"
          label="Files indexed"
          value={formatCount(s.files_ok)}
          detail={`${s.files_failed} failed, ${s.files_in_progress} being written`}
        />
        <StatCard
          testId="stat-messages"
          label="Assistant messages"
          value={formatCount(s.assistant_messages)}
          detail={s.first_day ? `${formatDay(s.first_day)} – ${formatDay(s.last_day)}` : undefined}
        />
        <StatCard testId="stat-turns" label="Tool-use turns" value={formatCount(s.tool_use_turns)} detail="messages that stopped to call a tool" />
        {measurable
          .filter((c) => c.count > 0 || showAll)
          .map((c) => (
            <StatCard
              key={c.code}
              testId={`stat-${c.code}`}
              label={codeLabel(c.code)}
              value={formatCount(c.count)}
              detail={
                <span title={`per 1,000 ${opportunityWords(c.opportunity)}, with 95% Wilson interval`}>{formatCell(c, opportunityWords(c.opportunity))}</span>
              }
            />
          ))}
      </div>
      {quiet.length > 0 && !showAll && (
        <p className="muted small" data-testid="quiet-codes">
          No findings for {quiet.length} other code{quiet.length === 1 ? '' : 's'} ({quiet.map((c) => codeLabel(c.code)).join(', ')}).{' '}
          <button type="button" className="linkish" onClick={onShowAll}>
            Show them
          </button>
        </p>
      )}
      {notMeasurable.length > 0 && (
        <p className="muted small" data-testid="not-measurable">
          Not measurable here: {notMeasurable.map((c) => `${codeLabel(c.code)} — ${NOT_MEASURABLE_TEXT[c.not_measurable!] ?? c.not_measurable}`).join('; ')}.
        </p>
      )}
    </>
  );
}
