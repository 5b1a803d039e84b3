import { Link } from 'react-router';
import { FINDING_OPPORTUNITY } from '../../../shared/denominators';
import { FINDING_DEFINITIONS, type FindingCode, isFindingCode } from '../../../shared/finding-codes';
import { opportunityWords } from '../../../shared/format/opportunity-words';
import { codeLabel } from '../lib/format';
import { codeColor, codeDash } from './colors';

export function codeDefinition(code: string): string {
  return isFindingCode(code) ? `${FINDING_DEFINITIONS[code]} Rate over ${opportunityWords(FINDING_OPPORTUNITY[code as FindingCode])}.` : code;
}

/**
 * The legend under every chart: each drawn code with its colour and dash, its definition in a
 * tooltip and one click from the glossary. Hovering or focusing a code shows its interval band.
 */
export function CodeLegend({
  codes,
  focused,
  onFocus,
  hidden = 0,
  showHidden,
  onToggleHidden,
}: {
  codes: readonly string[];
  focused?: string | null;
  onFocus?: (code: string | null) => void;
  hidden?: number;
  showHidden?: boolean;
  onToggleHidden?: () => void;
}) {
  return (
    <ul className="legend" data-testid="chart-legend" aria-label="Legend">
      {codes.map((code) => (
        <li key={code} data-code={code} className={focused === code ? 'legend-focused' : undefined}>
          <button
            type="button"
            className="legend-item"
            title={codeDefinition(code)}
            aria-pressed={focused === code}
            onMouseEnter={() => onFocus?.(code)}
            onMouseLeave={() => onFocus?.(null)}
            onFocus={() => onFocus?.(code)}
            onBlur={() => onFocus?.(null)}
          >
            <svg width="22" height="10" aria-hidden="true" className="legend-swatch">
              <line x1="0" y1="5" x2="22" y2="5" stroke={codeColor(code)} strokeWidth="3" strokeDasharray={codeDash(code)} />
            </svg>
            {codeLabel(code)}
          </button>
          <Link className="legend-def" to={`/glossary#${code}`} aria-label={`Definition of ${codeLabel(code)}`} title={codeDefinition(code)}>
            ?
          </Link>
        </li>
      ))}
      {onToggleHidden && (hidden > 0 || showHidden) && (
        <li>
          <button type="button" className="linkish" onClick={onToggleHidden} data-testid="toggle-zero-codes">
            {showHidden ? 'Only codes with findings' : `Show ${hidden} code${hidden === 1 ? '' : 's'} without findings`}
          </button>
        </li>
      )}
    </ul>
  );
}
