/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitUntil<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, false | undefined>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Reads server-sent events from a response body into a list, in the background, until cancelled. */
export function collectEvents(body: ReadableStream<Uint8Array>): { events: Array<{ event: string; data: unknown }>; stop: () => Promise<void> } {
  const events: Array<{ event: string; data: unknown }> = [];
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) !== -1) {
        const chunk = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = chunk.split('\n').find((l) => l.startsWith('event: '));
        const data = chunk.split('\n').find((l) => l.startsWith('data: '));
        if (event && data) events.push({ event: event.slice(7), data: JSON.parse(data.slice(6)) });
      }
    }
  };
  const running = pump();
  return {
    events,
    stop: async () => {
      await reader.cancel().catch(() => {});
      await running;
    },
  };
}
