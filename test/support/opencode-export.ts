import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The project's own `opencode export` fixture, from which the OpenCode database tests build their databases. */
export const exportText = readFileSync(join(import.meta.dirname, '../../fixtures/agents/opencode-invalid-call.jsonl'), 'utf8');

export type Doc = { info: Record<string, unknown> & { id: string }; messages: { info: { id: string }; parts: { id: string }[] }[] };

/** A fresh parsed copy of the fixture's session. */
export const exportDoc = (): Doc => JSON.parse(exportText);

/** The fixture's session under another id (its messages and parts too), so one database holds several. */
export function renamed(doc: Doc, tag: string): Doc {
  return JSON.parse(
    JSON.stringify(doc)
      .replaceAll(doc.info.id, `${doc.info.id}_${tag}`)
      .replace(/"(msg|prt)_(\d{4})/g, `"$1_$2${tag}`),
  );
}
