// Child process for test/reliability: opens (creating and migrating) the database and prints its schema version.
import { openDatabase } from '../../../server/store/database';

const db = openDatabase(process.argv[2]!);
process.stdout.write(`${db.pragma('user_version', { simple: true })}\n`);
db.close();
