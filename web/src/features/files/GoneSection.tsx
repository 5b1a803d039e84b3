import { useForget, useGoneFiles } from '../../api/queries';
import { ErrorBanner, Loaded, Section } from '../../components/ui';
import { FileTable } from './FileTable';

/** Transcripts deleted on disk whose metadata the index keeps (issue 27), each forgettable, or all at once. */
export function GoneSection() {
  const gone = useGoneFiles();
  const forget = useForget();
  return (
    <Loaded query={gone} height={80}>
      {(data) =>
        data.rows.length === 0 ? null : (
          <Section
            title={`${data.rows.length} transcript${data.rows.length === 1 ? '' : 's'} kept after deletion (oldest ${
              data.rows
                .map((f) => f.first_day ?? '')
                .filter(Boolean)
                .sort()[0] ?? 'unknown'
            })`}
            actions={
              <button
                type="button"
                className="danger"
                data-testid="forget-gone"
                disabled={forget.isPending}
                onClick={() => {
                  if (window.confirm(`Forget what the index keeps of ${data.rows.length} transcripts deleted on disk? Their findings leave every figure.`))
                    forget.mutate({ gone: true });
                }}
              >
                Forget all
              </button>
            }
          >
            <ErrorBanner error={forget.error} />
            <p className="muted small">
              Deleted on disk (Claude Code deletes transcripts older than cleanupPeriodDays, 30 days by default); the index keeps their metadata, still counted
              in every figure, until you forget it here or with <code>forget --gone</code>.
            </p>
            <FileTable
              rows={data.rows}
              columns={['folder', 'file', 'firstDay', 'goneSince', 'agent']}
              testId="gone-table"
              rowTestId="gone-row"
              action={(f) => (
                <button
                  type="button"
                  className="danger"
                  disabled={forget.isPending}
                  onClick={() => {
                    if (window.confirm(`Forget ${f.file}? Its findings leave every figure.`)) forget.mutate({ fileId: f.id });
                  }}
                >
                  Forget
                </button>
              )}
            />
          </Section>
        )
      }
    </Loaded>
  );
}
