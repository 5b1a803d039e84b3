import { useFolders, useHealth, useIndexRunState, useRemoveFolder, useSetFolderSalvage, useStartIndexRun } from '../../api/queries';
import { READ_ONLY_TITLE } from '../../components/ReadOnlyBanner';

/** The folders, the index run, and what the page may change: off (and saying why) on a read-only index or while a run runs. */
export function useFolderActions() {
  const folders = useFolders();
  const indexRun = useIndexRunState();
  const health = useHealth();
  const remove = useRemoveFolder();
  const start = useStartIndexRun();
  const salvage = useSetFolderSalvage();
  const running = indexRun.data?.state === 'running';
  // A read-only index (the banner says why): every control that would write is off, and says so.
  const readOnly = health.data?.read_only === true;
  const offTitle = readOnly ? READ_ONLY_TITLE : undefined;
  return { folders, indexRun, health, remove, start, salvage, running, readOnly, offTitle };
}

export type FolderActions = ReturnType<typeof useFolderActions>;
