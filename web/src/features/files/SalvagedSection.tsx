import type { FileProblem } from '../../../../shared/api-schemas';
import { Section } from '../../components/ui';
import { FileTable } from './FileTable';

/** Files read around damaged lines at the owner's request: counted, and listed so damage stays visible. */
export function SalvagedSection({ rows }: { rows: readonly FileProblem[] }) {
  if (rows.length === 0) return null;
  return (
    <Section title={`${rows.length} file${rows.length === 1 ? '' : 's'} salvaged (read around damaged lines)`}>
      <p className="muted small">
        Damaged files read with salvage, at your request for their folder: their complete rows are counted; the damaged lines are not, and a message a dropped
        torn row could belong to is counted nowhere. Untick salvage for the folder to fail them instead.
      </p>
      <FileTable
        rows={rows}
        columns={['status', 'folder', 'file', 'damage', 'line', 'damaged', 'size', 'checked', 'agent']}
        testId="salvaged-table"
        rowTestId="salvaged-row"
      />
    </Section>
  );
}
