/**
 * Semantic ordering of Claude Code versions (2.1.9 < 2.1.10 < 2.1.100). A pre-release sorts
 * before its release; anything that is not a version (or unknown, '') sorts last.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (pa === null || pb === null) return pa === null ? (pb === null ? a.localeCompare(b) : 1) : -1;
  for (let i = 0; i < 3; i++) if (pa.parts[i] !== pb.parts[i]) return pa.parts[i]! - pb.parts[i]!;
  if (pa.pre === pb.pre) return 0;
  if (pa.pre === '') return 1;
  if (pb.pre === '') return -1;
  return pa.pre.localeCompare(pb.pre, 'en', { numeric: true });
}

function parse(v: string): { parts: number[]; pre: string } | null {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/.exec(v);
  if (!m) return null;
  return { parts: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ?? '' };
}
