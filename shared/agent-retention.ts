import type { Agent } from './agents';

/**
 * Each agent's own rule for deleting its sessions (issue 38 point 3; ../shared/corpus/agents/SOURCES.md, "On a
 * user's machine", December 2026): the setting, its default age in days, and the version since which it is on by
 * default (null: always). null: no automatic deletion found. The index keeps what it read of a deleted session
 * (issue 27), so the Folders page says, per folder, which of its agents delete by default.
 */
export interface RetentionRule {
  setting: string;
  default_days: number;
  since: string | null;
}

export const AGENT_RETENTION: Record<Agent, RetentionRule | null> = {
  // Deletes transcripts whose mtime is older, at startup (anthropics/claude-code#62250).
  'claude-code': { setting: 'cleanupPeriodDays', default_days: 30, since: null },
  // general.sessionRetention {enabled, maxAge, maxCount}: opt-in since 0.9.0, on with maxAge 30d since 0.33.0 (google-gemini/gemini-cli#20853).
  'gemini-cli': { setting: 'general.sessionRetention', default_days: 30, since: '0.33.0' },
  // No automatic deletion and no setting for it as of 0.147 (openai/codex#28187).
  codex: null,
  // None: the database only grows (anomalyco/opencode#4980).
  opencode: null,
  // None found; /session delete by hand since 1.0.35.
  'copilot-cli': null,
  // None: by hand only.
  pi: null,
};
