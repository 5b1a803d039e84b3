import { useState } from 'react';
import { Loaded, Section } from '../../components/ui';

/** The suggested issue title and the Markdown body, each one click from the clipboard, with the body's size against GitHub's limit. */
export function IssueCopySection({ markdown, title }: { markdown: { data: string | undefined; error: unknown }; title: string | undefined }) {
  const [copiedIssue, setCopiedIssue] = useState<'' | 'title' | 'body'>('');
  const copyIssue = (what: 'title' | 'body', value: string) =>
    void navigator.clipboard?.writeText(value).then(() => {
      setCopiedIssue(what);
      setTimeout(() => setCopiedIssue(''), 1500);
    });
  return (
    <Section title="Copy as GitHub issue">
      <Loaded query={markdown} height={80}>
        {(body) => (
          <div className="issue-copy">
            <label style={{ display: 'block' }}>
              Suggested title{' '}
              <input
                readOnly
                value={title ?? ''}
                data-testid="issue-title"
                style={{ display: 'block', width: '100%', maxWidth: '48em' }}
                onFocus={(e) => e.currentTarget.select()}
              />
            </label>{' '}
            <button type="button" disabled={!title} onClick={() => copyIssue('title', title ?? '')}>
              {copiedIssue === 'title' ? 'Copied' : 'Copy title'}
            </button>{' '}
            <button type="button" onClick={() => copyIssue('body', body)} data-testid="copy-issue-body">
              {copiedIssue === 'body' ? 'Copied' : 'Copy issue body'}
            </button>
            <p className="muted small" data-testid="issue-size">
              {body.length.toLocaleString('en-US')} characters of Markdown (GitHub takes up to 65,536)
              {body.includes('Left out to fit a GitHub issue:') ? '; some detail was folded away to fit, as the report says' : ''}.
            </p>
          </div>
        )}
      </Loaded>
    </Section>
  );
}
