import { IndexRunProgress } from '../../components/IndexRunProgress';
import { EmptyState, ErrorBanner, Section, Skeleton } from '../../components/ui';
import { AddFolderForm } from './AddFolderForm';
import { FolderTable } from './FolderTable';
import { CleanupNote } from './RetentionNote';
import { useFolderActions } from './use-folder-actions';

/** The folders the owner added (what is indexed): add, index, salvage setting, remove. */
export function FoldersPage() {
  const actions = useFolderActions();
  const { folders, indexRun, health, remove, start, salvage, running, readOnly, offTitle } = actions;

  return (
    <div className="page">
      <h1>Folders</h1>
      <p className="muted">
        Nothing is indexed unless you add it here (or with <code>index</code> on the command line). Symbolic links are never followed. Only metadata is stored:
        codes, relative file names, line numbers, counts and digests — never what a conversation said. Claude Code keeps transcripts in{' '}
        <code>~/.claude/projects</code>.
      </p>
      <ErrorBanner error={remove.error ?? start.error ?? salvage.error ?? folders.error} />
      <CleanupNote folders={folders.data?.rows ?? []} />
      <Section title="Add a folder">
        <AddFolderForm actions={actions} />
      </Section>
      <Section
        title="Folders"
        actions={
          <button
            type="button"
            disabled={readOnly || running || !folders.data?.rows.length || start.isPending}
            title={offTitle}
            onClick={() => start.mutate(undefined)}
          >
            {running ? 'Indexing…' : 'Index all'}
          </button>
        }
      >
        {indexRun.data && <IndexRunProgress state={indexRun.data} />}
        {!folders.data ? (
          <Skeleton height={120} />
        ) : folders.data.rows.length === 0 ? (
          <EmptyState title="No folders yet">
            <p>
              {readOnly
                ? 'This read-only index holds no folders; nothing can be added to it here.'
                : `Add a folder above${health.data?.demo ? '' : ', or restart with npm start -- --demo to explore generated demo data'}.`}
            </p>
          </EmptyState>
        ) : (
          <FolderTable rows={folders.data.rows} actions={actions} />
        )}
      </Section>
    </div>
  );
}
