/** A mistake in how the CLI was called: one line on stderr, nothing on stdout, exit 2. */
export class UsageError extends Error {}
