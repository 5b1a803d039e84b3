// Child process for test/reliability/open-swaps.test.ts: opens argv[3] once through the opener named
// argv[2], in a process of its own, so a test whose opener blocks (a FIFO opened without O_NONBLOCK)
// fails on a timeout instead of freezing the test runner. Prints one JSON line: what came back.
import { waitForFlush } from '../../../server/cli/hook-command';
import { readAllRowMetadata, readRowWindow } from '../../../server/scan/read-row-window';

const [which, path] = [process.argv[2]!, process.argv[3]!];
const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
if (which === 'hook-flush') {
  await waitForFlush(path, 200).then(
    () => out('waited'),
    () => out('refused'),
  );
} else if (which === 'session-rows') {
  out(readAllRowMetadata(path) === null ? 'unreadable' : 'read');
} else if (which === 'finding-window') {
  out(readRowWindow(path, [1], '0'.repeat(64), 1, 1).status);
} else {
  out('unknown opener');
}
