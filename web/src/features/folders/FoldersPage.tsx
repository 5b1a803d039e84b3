import { useState } from 'react';
import { useAddFolder, useFolders, useHealth, useIndexRunState, useRemoveFolder, useSetFolderSalvage, useStartIndexRun } from '../../api/queries';
import { IndexRunProgress } from '../../components/IndexRunProgress';
import { READ_ONLY_TITLE } from '../../components/ReadOnlyBanner';
import { EmptyState, ErrorBanner, Section, Skeleton } from '../../components/ui';
import { formatCount, formatTimestamp } from '../../lib/format';
import { CleanupNote, RetentionLine } from './RetentionNote';

/** The folders the owner added (what is indexed): add, index, salvage setting, remove. */
export function FoldersPage() {
  const folders = useFolders();
  const indexRun = useIndexRunState();
  const health = useHealth();
  const add = useAddFolder();
  const remove = useRemoveFolder();
  const start = useStartIndexRun();
  const salvage = useSetFolderSalvage();
  const [path, setPath] = useState('');
  const [label, setLabel] = useState('');
  const running = indexRun.data?.state === 'running';
  // A read-only index (the banner says why): every control that would write is off, and says so.
  const readOnly = health.data?.read_only === true;
  const offTitle = readOnly ? READ_ONLY_TITLE : undefined;

  return (
    <div className="page">
      <h1>Folders</h1>
      <p className="muted">
        Nothing is indexed unless you add it here (or with <code>index</code> on the command line). Symbolic links are never followed. Only metadata is stored:
        codes, relative file names, line numbers, counts and digests — never what a conversation said. Claude Code keeps transcripts in{' '}
        <code>~/.claude/projects</code>.
      </p>
      <ErrorBanner error={add.error ?? remove.error ?? start.error ?? salvage.error ?? folders.error} />
      <CleanupNote folders={folders.data?.rows ?? []} />
      <Section title="Add a folder">
        <form
          className="add-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!path.trim()) return;
            add.mutate(
              { path: path.trim(), ...(label.trim() ? { label: label.trim() } : {}) },
              {
                // Adding a folder means wanting it read: its index run starts at once.
                onSuccess: (folder) => {
                  setPath('');
                  setLabel('');
                  start.mutate(folder.id);
                },
              },
            );
          }}
        >
          <label>
            Folder (absolute path)
            <input
              name="path"
              value={path}
              onChange={(e) => setPath(e.target.value)}
              placeholder="/home/you/.claude/projects"
              autoComplete="off"
              spellCheck={false}
              required
            />
          </label>
          <label>
            Label (shown instead of the path)
            <input name="label" value={label} onChange={(e) => setLabel(e.target.value)} placeholder="optional" maxLength={80} />
          </label>
          <button type="submit" disabled={readOnly || add.isPending} title={offTitle}>
            Add folder
          </button>
        </form>
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
          <div className="table-scroll">
            <table className="table" data-testid="folders-table">
              <thead>
                <tr>
                  <th>label</th>
                  <th>path</th>
                  <th className="num">files</th>
                  <th className="num">failed</th>
                  <th className="num">being written</th>
                  <th>last indexed</th>
                  <th title="Damaged files: read their complete rows instead of failing them (two rows on one line after an unclean shutdown; a torn row's message is left out). Off: a damaged file counts nowhere.">
                    salvage
                  </th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {folders.data.rows.map((r) => (
                  <tr key={r.id}>
                    <td>
                      {r.label}
                      {r.removed_at !== null && <div className="muted small">removed, history kept</div>}
                      <RetentionLine folder={r} />
                    </td>
                    <td className="break">
                      <code>{r.path}</code>
                    </td>
                    <td className="num">
                      {formatCount(r.files)}
                      {r.files_gone > 0 && (
                        <div className="muted small" data-testid={`gone-${r.id}`}>
                          {formatCount(r.files_gone)} transcript{r.files_gone === 1 ? '' : 's'} kept after deletion (oldest {r.gone_oldest_day ?? 'unknown'})
                        </div>
                      )}
                    </td>
                    <td className="num">{r.files_failed}</td>
                    <td className="num">{r.files_in_progress}</td>
                    <td>{formatTimestamp(r.last_indexed_at)}</td>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Salvage damaged files in ${r.label}`}
                        data-testid={`salvage-${r.id}`}
                        checked={r.salvage}
                        disabled={readOnly || running || salvage.isPending}
                        title={offTitle}
                        onChange={(e) =>
                          // The setting changes what is read: the folder is indexed again at once with it.
                          salvage.mutate({ id: r.id, salvage: e.target.checked }, { onSuccess: () => start.mutate(r.id) })
                        }
                      />
                    </td>
                    <td className="actions">
                      <button type="button" disabled={readOnly || running} title={offTitle} onClick={() => start.mutate(r.id)}>
                        Index
                      </button>
                      <button
                        type="button"
                        className="danger"
                        disabled={readOnly || running}
                        title={offTitle}
                        onClick={() => {
                          if (r.removed_at !== null) {
                            if (window.confirm(`Forget the history kept of “${r.label}”? Its findings leave every figure.`))
                              remove.mutate({ id: r.id, forget: true });
                            return;
                          }
                          if (!window.confirm(`Remove “${r.label}”? It is no longer indexed or watched. Your files are not touched.`)) return;
                          // The history is kept unless the owner says otherwise (OK forgets it, Cancel keeps it).
                          const forget = window.confirm(
                            `Also forget what the index holds of “${r.label}”? OK: forget it. Cancel: keep its history (still counted, as transcripts kept after deletion).`,
                          );
                          remove.mutate({ id: r.id, forget });
                        }}
                      >
                        {r.removed_at !== null ? 'Forget' : 'Remove'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </div>
  );
}
