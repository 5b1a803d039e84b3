/**
 * The one spelling of "unknown" in filters (`version=unknown`, `model=unknown`); JSON says null.
 * Its own module, not in api-schemas.ts: the CLI's index and report commands use it, and
 * importing the schemas would load TypeBox at every start (~30 ms of module loading).
 */
export const UNKNOWN = 'unknown';
