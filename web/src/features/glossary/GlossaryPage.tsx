import { FINDING_OPPORTUNITY, NOT_MEASURABLE_REASON, NOT_MEASURABLE_TEXT } from '../../../../shared/denominators';
import { FINDING_CODES, FINDING_DEFINITIONS } from '../../../../shared/finding-codes';
import { opportunityWords } from '../../../../shared/format/opportunity-words';
import { GLOSSARY } from '../../../../shared/glossary';
import { codeColor, codeDash } from '../../charts/colors';
import { codeLabel } from '../../lib/format';

/** A glossary meaning as written in shared/glossary.ts: `backticked` spans are code, shown as code (never as raw backticks). */
function WithCode({ text }: { text: string }) {
  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never reorder; the index is their position
  return <>{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}

/** The project's words (shared/glossary.ts), then every finding code: its one-line definition and what its rate is over (shared/finding-codes.ts). */
export function GlossaryPage() {
  return (
    <div className="page">
      <h1>Glossary</h1>
      <h2>Words</h2>
      <dl className="glossary" data-testid="glossary-words">
        {GLOSSARY.map(({ term, meaning }) => (
          <div key={term} id={`term-${term.replaceAll(' ', '-')}`} className="glossary-entry">
            <dt>
              <strong>{term}</strong>
            </dt>
            <dd>
              <p>
                <WithCode text={meaning} />
              </p>
            </dd>
          </div>
        ))}
      </dl>
      <h2>Codes</h2>
      <p className="muted">
        Each code's rate is per 1,000 of its own opportunities: the messages where it could have fired. Where a selection holds none, the code is not measurable
        there (a gap, never 0‰).
      </p>
      <dl className="glossary" data-testid="glossary">
        {FINDING_CODES.map((code) => (
          <div key={code} id={code} className="glossary-entry">
            <dt>
              <svg width="22" height="10" aria-hidden="true">
                <line x1="0" y1="5" x2="22" y2="5" stroke={codeColor(code)} strokeWidth="3" strokeDasharray={codeDash(code)} />
              </svg>{' '}
              <strong>{codeLabel(code)}</strong> <code className="small">{code}</code>
            </dt>
            <dd>
              <p>{FINDING_DEFINITIONS[code]}</p>
              <p className="muted small">
                Rate over: {opportunityWords(FINDING_OPPORTUNITY[code])}. Without any: {NOT_MEASURABLE_TEXT[NOT_MEASURABLE_REASON[FINDING_OPPORTUNITY[code]]]}.
              </p>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
