import type { RegressionVerdict } from '../../../shared/api-schemas';

/** The verdict sentences for one dimension: every model together first, then each model, folded. */
export function RegressionVerdicts({ verdicts, dimension, method }: { verdicts: RegressionVerdict[]; dimension: 'version' | 'day'; method: string }) {
  const mine = verdicts.filter((v) => v.dimension === dimension);
  const overall = mine.filter((v) => v.model === null);
  const perModel = mine.filter((v) => v.model !== null);
  return (
    <div className="verdicts" data-testid={`verdicts-${dimension}`}>
      <ul>
        {overall.map((v) => (
          <li key={v.code} className={`verdict verdict-${v.status}`}>
            <strong>{v.status === 'regression' ? 'Regression' : v.status === 'no_regression' ? 'No regression' : 'Not enough data'}</strong> — {v.summary}
          </li>
        ))}
      </ul>
      {perModel.length > 0 && (
        <details>
          <summary>Per model</summary>
          <ul>
            {perModel.map((v) => (
              <li key={`${v.code}-${v.model}`} className={`verdict verdict-${v.status}`}>
                {v.summary}
              </li>
            ))}
          </ul>
        </details>
      )}
      <p className="muted small">{method}</p>
    </div>
  );
}
