import { useState } from 'react';
import { download } from '../../charts/chart-export';
import { Loaded, Section } from '../../components/ui';

/** The report exactly as it would be shared, to copy or download. */
export function ReportSection({ text, format }: { text: { data: string | undefined; error: unknown }; format: 'md' | 'json' }) {
  const [copied, setCopied] = useState(false);
  return (
    <Section
      title="Report"
      actions={
        <span className="actions-row">
          <button
            type="button"
            disabled={!text.data}
            onClick={() =>
              void navigator.clipboard?.writeText(text.data ?? '').then(() => {
                setCopied(true);
                setTimeout(() => setCopied(false), 1500);
              })
            }
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
          <button
            type="button"
            disabled={!text.data}
            onClick={() =>
              download(`tool-call-forensics-report.${format}`, new Blob([text.data ?? ''], { type: format === 'md' ? 'text/markdown' : 'application/json' }))
            }
          >
            Download
          </button>
        </span>
      }
    >
      <Loaded query={text} height={300}>
        {(report) => (
          <pre className="report" data-testid="report-text">
            {report}
          </pre>
        )}
      </Loaded>
    </Section>
  );
}
