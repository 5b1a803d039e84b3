/**
 * `npm run schema`: writes server/store/schema.sql, what the migrations make of an empty database (database.ts
 * schemaSnapshot). Run it after adding a migration; test/store/schema-snapshot.test.ts fails until it is.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotFromMigrations } from './database';

const target = join(import.meta.dirname, 'schema.sql');
const { sql, random } = snapshotFromMigrations();
writeFileSync(target, sql);
console.log(`left out, made again for each database: ${random.length} row(s)`);
console.log(`wrote ${target}`);
