import { useState } from 'react';
import { useAddFolder } from '../../api/queries';
import { ErrorBanner } from '../../components/ui';
import type { FolderActions } from './use-folder-actions';

/** Add a folder by its absolute path (and an optional label); its index run starts at once. */
export function AddFolderForm({ actions }: { actions: FolderActions }) {
  const { start, readOnly, offTitle } = actions;
  const add = useAddFolder();
  const [path, setPath] = useState('');
  const [label, setLabel] = useState('');
  return (
    <>
      <ErrorBanner error={add.error} />
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
            title="A folder of transcripts, or OpenCode's database file itself (~/.local/share/opencode/opencode.db)"
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
    </>
  );
}
