import type { RedactionQuery } from '../../../../shared/api-schemas';
import { useEvidenceText } from '../../api/queries';
import { filtersFromSearch } from '../../lib/url-filters';
import { useUrlParams } from '../../lib/use-url-params';

export const OPTIONS = {
  files: [
    ['pseudonymize', 'pseudonymize (default)'],
    ['keep-session', 'keep-session (no project folders)'],
    ['keep', 'keep (prints project folders)'],
    ['omit', 'omit'],
  ],
  lines: [
    ['keep', 'keep'],
    ['omit', 'omit'],
  ],
  digests: [
    ['keep', 'keep'],
    ['omit', 'omit'],
  ],
  models: [
    ['keep', 'keep'],
    ['generalize', 'family only'],
  ],
} as const;

/** What the JSON form of the report tells the page: the suggested title, warnings, the claim's versions. */
export interface ReportHead {
  title?: string;
  warnings?: string[];
  claim?: { versions: string[] };
}

/** The report's filters, redaction, format and scope from the address, and the report in the chosen form, in JSON and in Markdown. */
export function useEvidence() {
  const [search, setParams] = useUrlParams();
  const filters = filtersFromSearch(search);
  const redaction: RedactionQuery = {};
  for (const key of Object.keys(OPTIONS) as Array<keyof typeof OPTIONS>) {
    const v = search.get(key);
    if (v && OPTIONS[key].some(([value]) => value === v)) (redaction as Record<string, string>)[key] = v;
  }
  const format: 'md' | 'json' = search.get('format') === 'json' ? 'json' : 'md';
  // One claim (default: the strongest card's code, or the code filter's) or, like `export --all-codes`, every code alike.
  const scope = search.get('scope') === 'all' ? 'all' : undefined;
  const text = useEvidenceText(filters, redaction, format, scope);
  // The JSON form carries the suggested title (and the same content); the issue body is the Markdown.
  const json = useEvidenceText(filters, redaction, 'json', scope);
  const markdown = useEvidenceText(filters, redaction, 'md', scope);
  const parsed = (() => {
    try {
      return json.data ? (JSON.parse(json.data) as ReportHead) : null;
    } catch {
      return null;
    }
  })();
  return { search, setParams, filters, redaction, format, scope, text, markdown, parsed };
}

export type EvidenceState = ReturnType<typeof useEvidence>;
