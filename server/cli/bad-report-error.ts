/** A file given to `verify` that is not a JSON evidence report. */
export class BadReportError extends Error {}
