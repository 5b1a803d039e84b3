import { AGENT_LABELS, isAgent } from '../../../../shared/agents';
import type { Folder } from '../../../../shared/api-schemas';

const label = (agent: string) => (isAgent(agent) ? AGENT_LABELS[agent] : agent);

/** One agent's own deletion rule, in words (shared/agent-retention.ts). */
function ruleWords(r: Folder['retention'][number]) {
  if (r.setting === null || r.default_days === null) return <>keeps its sessions (no automatic deletion found)</>;
  return (
    <>
      deletes sessions older than <code>{r.setting}</code> ({r.default_days} days by default{r.since ? ` since v${r.since}` : ''})
    </>
  );
}

/** Per folder: which agents its files belong to, and each one's own rule for deleting them (issue 38). */
export function RetentionLine({ folder }: { folder: Folder }) {
  if (folder.retention.length === 0) return null;
  return (
    <div className="muted small" data-testid={`retention-${folder.id}`}>
      {folder.retention.map((r, i) => (
        <span key={r.agent}>
          {i > 0 && ' · '}
          {label(r.agent)}: {ruleWords(r)}
        </span>
      ))}
    </div>
  );
}

/**
 * The note for folders whose agents delete old sessions by default and whose oldest files are near that age
 * (`cleanup_note`), said for each such agent those folders hold; nothing when no folder needs it.
 */
export function CleanupNote({ folders }: { folders: readonly Folder[] }) {
  const flagged = folders.filter((f) => f.cleanup_note);
  const agents = new Set(flagged.flatMap((f) => f.retention.filter((r) => r.setting !== null).map((r) => r.agent)));
  if (agents.size === 0) return null;
  return (
    <div className="banner banner-warning" data-testid="cleanup-note">
      {agents.has('claude-code') && (
        <p data-testid="cleanup-note-claude-code">
          Claude Code deletes transcripts older than <code>cleanupPeriodDays</code> — 30 days by default — when it starts. From now on this index keeps their
          metadata (counts, codes, digests, versions, days) after they are deleted, so your history reaches further back than a month. To keep the transcripts
          themselves, raise <code>cleanupPeriodDays</code> in your Claude Code settings (never to <code>0</code>: that stops transcripts being written at all);
          this tool never edits your settings.{' '}
          <a href="https://docs.claude.com/en/docs/claude-code/settings" target="_blank" rel="noreferrer">
            Claude Code settings
          </a>
        </p>
      )}
      {agents.has('gemini-cli') && (
        <p data-testid="cleanup-note-gemini-cli">
          Gemini CLI deletes chats older than 30 days by default since v0.33 (<code>general.sessionRetention</code> in its <code>settings.json</code>). This
          index keeps what it read of them after they are deleted. To keep the chats themselves, raise <code>maxAge</code> or set <code>enabled</code> to{' '}
          <code>false</code> there; this tool never edits your settings.
        </p>
      )}
    </div>
  );
}
