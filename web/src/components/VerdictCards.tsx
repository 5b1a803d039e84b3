import type { CardSide, RegressionsResponse, VerdictCard } from '../../../shared/api-schemas';
import { opportunityWords } from '../../../shared/format/opportunity-words';
import { formatP } from '../../../shared/format/p-value';
import { codeDefinition } from '../charts/CodeLegend';
import { codeColor } from '../charts/colors';
import { codeLabel, formatCount, formatPerMille, formatShortDay } from '../lib/format';
import { Loaded, Section } from './ui';

const where = (card: VerdictCard, key: string | null) => (key === null ? '–' : card.dimension === 'day' ? formatShortDay(key) : key);

/** "3 / 412 = 7.3‰ (95% CI 2.5–21‰)": k/n and the rate with its interval. */
export function formatSide(s: CardSide): string {
  const i = s.per_1000_opportunities;
  if (!i) return `${s.count} / ${formatCount(s.opportunities)}`;
  return `${s.count} / ${formatCount(s.opportunities)} = ${formatPerMille(i.rate)} (95% CI ${formatPerMille(i.low).replace('‰', '')}–${formatPerMille(i.high)})`;
}

/** Strength in plain words, with the wording the server chose. */
export function strengthClass(card: VerdictCard): string {
  return card.strength === 'strong' ? 'badge-strong' : card.strength === 'suggestive' ? 'badge-suggestive' : 'badge-thin';
}

/**
 * One card per change point: the codes that step up together, last good → first bad, before
 * and after as k/n with the rate and its interval, the ratio, sessions beside events, and the
 * test one click away. Where no card names a change, one line says why.
 */
export function VerdictCards({
  cards,
  noClaim,
  sessionCap,
  testId = 'verdict-cards',
}: {
  cards: readonly VerdictCard[];
  noClaim: string | null;
  sessionCap: number;
  testId?: string;
}) {
  return (
    <div className="verdict-cards" data-testid={testId}>
      {cards.map((card) => (
        <article
          key={card.id}
          className={`verdict-card verdict-card-${card.strength}`}
          data-testid="verdict-card"
          data-first-bad={card.first_bad ?? ''}
          data-strength={card.strength}
        >
          <header className="verdict-card-head">
            <h3>
              {card.strength === 'insufficient' ? (
                // Where it starts first; the place with the highest rate is labelled as the peak.
                <span data-testid="card-start">
                  {card.first_finding ? (
                    <>
                      First finding <strong>{where(card, card.first_finding)}</strong> · peak {where(card, card.first_bad)}
                    </>
                  ) : (
                    <>Peak {where(card, card.first_bad)}</>
                  )}
                </span>
              ) : (
                <span data-testid="card-start">
                  {where(card, card.last_good)} → <strong>{where(card, card.first_bad)}</strong>
                  <span className="muted small">
                    {' '}
                    (change {card.dimension}
                    {card.first_finding ? `; first finding after it ${where(card, card.first_finding)}` : ''})
                  </span>
                </span>
              )}
              <span className="muted small"> · {card.codes.map((c) => codeLabel(c.code)).join(' + ')}</span>
            </h3>
            <span className={`badge ${strengthClass(card)}`}>{card.strength_text}</span>
          </header>
          {card.coincides && (
            <p className="small" data-testid="verdict-coincides">
              {card.coincides.text}
            </p>
          )}
          <table className="table verdict-table">
            <thead>
              <tr>
                <th>code</th>
                <th className="num">{card.strength === 'insufficient' ? 'before the peak' : `before (to ${where(card, card.last_good)})`}</th>
                <th className="num">
                  {card.strength === 'insufficient' ? `at the peak (${where(card, card.first_bad)})` : `after (from ${where(card, card.first_bad)})`}
                </th>
                <th className="num">ratio</th>
                <th className="num">events · sessions</th>
              </tr>
            </thead>
            <tbody>
              {card.codes.map((c) => (
                <tr key={c.code}>
                  <td title={codeDefinition(c.code)}>
                    <span className="dot" style={{ background: codeColor(c.code) }} /> {codeLabel(c.code)}
                    <div className="muted small">per 1,000 {opportunityWords(c.opportunity)}</div>
                  </td>
                  <td className="num">{formatSide(c.before)}</td>
                  <td className="num">{formatSide(c.after)}</td>
                  <td className="num">
                    {c.rate_ratio
                      ? `${c.rate_ratio.ratio.toFixed(1)}× (${c.rate_ratio.low.toFixed(1)}–${c.rate_ratio.high.toFixed(1)})${c.rate_ratio.corrected ? '*' : ''}`
                      : '–'}
                  </td>
                  <td className="num">
                    {c.after.events} · {c.after.sessions}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <details className="small">
            <summary>Test, p-value and correction</summary>
            <ul>
              {card.codes.map((c) => (
                <li key={c.code}>
                  {codeLabel(c.code)}: p = {formatP(c.p_value)}
                  {c.threshold !== null ? `, Bonferroni threshold ${formatP(c.threshold)} over ${c.tests} tests` : `; not tested (${c.tests} tests elsewhere)`}
                </li>
              ))}
            </ul>
            <p className="muted">
              {card.test} At most {sessionCap} findings per session count. * a count of 0 on one side: 0.5 added to every cell.
            </p>
          </details>
        </article>
      ))}
      {noClaim && (
        <p className="verdict-none" data-testid="verdict-none">
          {noClaim}
        </p>
      )}
    </div>
  );
}

/** "Where did it start?" by version: the version verdict cards of a regressions answer, in their section. */
export function VersionVerdicts({
  regressions,
  title,
  testId,
}: {
  regressions: { data: RegressionsResponse | undefined; error: unknown };
  title: string;
  testId: string;
}) {
  return (
    <Section title={title}>
      <Loaded query={regressions} height={90}>
        {(r) => (
          <VerdictCards cards={r.rows.filter((c) => c.dimension === 'version')} noClaim={r.no_claim.version} sessionCap={r.session_cap} testId={testId} />
        )}
      </Loaded>
    </Section>
  );
}
