import { OPENER_WORDS } from './harness-markers';

const INVOKE = /<invoke name="[^"\n]{1,200}">\s*<parameter name="[^"\n]{1,200}">/g;

/** Text outside ``` / ~~~ fenced code blocks (quoted markup inside fences is not a call). */
export function outsideCodeFences(text: string): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const m = /^\s{0,3}(```|~~~)/.exec(line);
    if (m) {
      if (fence === null) fence = m[1]!;
      else if (m[1] === fence) fence = null;
      continue;
    }
    if (fence === null) kept.push(line);
  }
  return kept.join('\n');
}

/**
 * Tool-call markup leaked into an assistant text block: a bare `<invoke name="…">` followed by
 * `<parameter name="…">`, outside code fences. Returns which fixed opener word (if any) stood
 * just before it — an index into OPENER_WORDS, never the text — or null when there is no leak.
 */
export function findLeakedInvoke(text: string): { opener: number | null } | null {
  if (!text.includes('<invoke')) return null;
  const visible = outsideCodeFences(text);
  for (const m of visible.matchAll(INVOKE)) {
    const before = visible.slice(0, m.index).trimEnd();
    // Markup inside a <function_calls> wrapper is a model imitating a whole exchange in prose
    // (seen in real 2.0.x subagent transcripts), not the bare leak this detector is about.
    if (before.endsWith('<function_calls>')) continue;
    const word = /([A-Za-z]+)$/.exec(before)?.[1]?.toLowerCase() ?? '';
    const opener = (OPENER_WORDS as readonly string[]).indexOf(word);
    return { opener: opener < 0 ? null : opener };
  }
  return null;
}
