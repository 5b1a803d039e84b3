import { useFileProblems, useSalvagedFiles } from '../../api/queries';
import { Loaded } from '../../components/ui';
import { DiagnosticsSection } from './DiagnosticsSection';
import { GoneSection } from './GoneSection';
import { NotCountedSections } from './NotCountedSections';
import { SalvagedSection } from './SalvagedSection';

export function FilesPage() {
  const files = useFileProblems();
  const salvaged = useSalvagedFiles();
  return (
    <div className="page">
      <h1>Files</h1>
      <p className="muted">
        A file that cannot be read contributes nothing, and is never counted as clean; a file still being written (its last line is incomplete) is counted once
        it is complete. Nothing fails silently: every such file is listed here. A file counts only when a reader recognised it (a Claude Code transcript, a
        stream-json capture or an SSE log); an empty file (zero bytes or blank lines) is counted apart.
      </p>
      <Loaded query={files} height={200}>
        {(data) => <NotCountedSections data={data} salvagedCount={salvaged.isSuccess ? salvaged.data.rows.length : null} />}
      </Loaded>
      <Loaded query={salvaged} height={80}>
        {(data) => <SalvagedSection rows={data.rows} />}
      </Loaded>
      <GoneSection />
      <DiagnosticsSection />
    </div>
  );
}
