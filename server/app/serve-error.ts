/** A server that must not start as asked (for example a non-loopback address without --allow-remote). */
export class ServeError extends Error {}
