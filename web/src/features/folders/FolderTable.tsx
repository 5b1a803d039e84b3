import type { Folder } from '../../../../shared/api-schemas';
import { formatCount, formatTimestamp } from '../../lib/format';
import { RetentionLine } from './RetentionNote';
import type { FolderActions } from './use-folder-actions';

/** One row per folder: its files, failures, last run, salvage setting, and index / remove buttons. */
export function FolderTable({ rows, actions }: { rows: readonly Folder[]; actions: FolderActions }) {
  const { remove, start, salvage, running, readOnly, offTitle } = actions;
  return (
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
          {rows.map((r) => (
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
  );
}
