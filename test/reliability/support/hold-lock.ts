// Child process for test/reliability: opens the database, takes the index lock, says "locked"
// and holds it until its stdin closes (or it is killed).
import { openDatabase } from '../../../server/store/database';
import { tryAcquireIndexLock } from '../../../server/store/index-lock';

const db = openDatabase(process.argv[2]!);
const lock = tryAcquireIndexLock(db);
process.stdout.write('locked\n');
process.stdin.resume();
process.stdin.on('end', () => {
  lock.release();
  db.close();
});
