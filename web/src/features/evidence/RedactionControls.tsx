import { type EvidenceState, OPTIONS } from './use-evidence';

/** How much the report shows (files, lines, digests, models), one claim or every code, Markdown or JSON. */
export function RedactionControls({ state }: { state: EvidenceState }) {
  const { redaction, scope, format, setParams } = state;
  const set = (key: string, value: string) => setParams({ [key]: value });
  return (
    <div className="filters" role="group" aria-label="Redaction">
      {(Object.keys(OPTIONS) as Array<keyof typeof OPTIONS>).map((key) => (
        <label key={key}>
          {key}{' '}
          <select value={redaction[key] ?? OPTIONS[key][0][0]} onChange={(e) => set(key, e.target.value)}>
            {OPTIONS[key].map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      ))}
      <label>
        report{' '}
        <select value={scope ?? 'claim'} data-testid="report-scope" onChange={(e) => setParams({ scope: e.target.value === 'all' ? 'all' : undefined })}>
          <option value="claim">one claim (the code filter's, else the strongest)</option>
          <option value="all">every code (whole corpus)</option>
        </select>
      </label>
      <label>
        format{' '}
        <select value={format} onChange={(e) => set('format', e.target.value)}>
          <option value="md">Markdown</option>
          <option value="json">JSON</option>
        </select>
      </label>
    </div>
  );
}
