/**
 * What a model id is, once (issue 34): the scanner stores a model id only when it is one
 * (shared/metadata-patterns.ts, safeModelId), and the API's `model=` (shared/api-schemas.ts,
 * ModelListPattern), the CLI's `--model` (server/cli/cli-options.ts) and the page's model chips
 * accept exactly these, so every stored id can be filtered on and nothing else passes.
 *
 * Ids real agents write: `claude-opus-4-8`, `gpt-5.4`, upper case (`Kimi-K2`, `GLM-4.6`), a tag after
 * `:` (Ollama through OpenCode: `qwen3-coder:30b`; Bedrock: `anthropic.claude-3-5-sonnet-20241022-v2:0`),
 * a version after `@` (Vertex: `claude-opus-4-1@20250805`) and providers before `/`, one or several
 * (`moonshotai/kimi-k2-instruct`, `openrouter/qwen/qwen3-coder`). So: 1–128 characters, the first a
 * letter or digit, then letters, digits, `.`, `_`, `-`, `:`, `@`, and `/` only between two of those
 * (never leading, trailing or doubled). No space, no control character, no quote, bracket or `<`, and
 * never `,`: it separates the ids of a filter list.
 */

/** Longest model id kept (longer: unknown). */
export const MODEL_ID_MAX = 128;

/** Longest comma-separated list of model ids a filter takes. */
export const MODEL_LIST_MAX = 400;

/** The characters of one id, as a regular expression source (no anchors): a letter or digit, then the rest. */
const ID_SOURCE = '[A-Za-z0-9](?:[A-Za-z0-9._:@-]|/(?=[A-Za-z0-9._:@-]))*';

const MODEL_ID = new RegExp(`^(?=.{1,${MODEL_ID_MAX}}$)${ID_SOURCE}$`);

/**
 * Model ids, comma-separated (1–400 characters, each id 1–128): the pattern of the API's `model=`, a
 * JSON-schema pattern (a string, as TypeBox takes it).
 */
export const MODEL_LIST_PATTERN = `^(?=.{1,${MODEL_LIST_MAX}}$)(?=[^,]{1,${MODEL_ID_MAX}}(?:,|$))${ID_SOURCE}(?:,(?=[^,]{1,${MODEL_ID_MAX}}(?:,|$))${ID_SOURCE})*$`;

/** Whether `value` is a model id (see above). `<synthetic>`, the harness's marker, is not one. */
export function isModelId(value: unknown): value is string {
  return typeof value === 'string' && MODEL_ID.test(value);
}
