import { toCsv } from '../lib/csv';

/** Each view as data: the exact API call behind it, and its table as CSV. */
export function ViewAsData({ api, csv }: { api: string; csv?: { name: string; rows: () => Array<Record<string, string | number | null>> } }) {
  return (
    <p className="view-as-data small" data-testid="view-as-data">
      <a href={api} target="_blank" rel="noreferrer" data-testid="api-link">
        JSON: <code>{api}</code>
      </a>
      {csv && (
        <>
          {' · '}
          <button
            type="button"
            className="linkish"
            data-testid="csv-download"
            onClick={() => {
              const blob = new Blob([toCsv(csv.rows())], { type: 'text/csv' });
              const url = URL.createObjectURL(blob);
              const a = document.createElement('a');
              a.href = url;
              a.download = csv.name;
              a.click();
              setTimeout(() => URL.revokeObjectURL(url), 1000);
            }}
          >
            Download CSV
          </button>
        </>
      )}
    </p>
  );
}
