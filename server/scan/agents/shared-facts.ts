import type { AssistantMessage } from '../transcript-model';

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isEmptyObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** A model message of another agent's format, with every Claude Code-only fact at its neutral value. */
export function modelMessage(index: number, messageId: string, fields: Pick<AssistantMessage, 'model' | 'day' | 'version' | 'effort'>): AssistantMessage {
  return {
    index,
    messageId,
    lines: [],
    stopReason: null,
    blockTypes: [],
    toolUses: [],
    signedThinking: false,
    synthetic: false,
    sidechain: false,
    leak: null,
    retryExhausted: false,
    damaged: false,
    outputTokens: null,
    entrypoint: null,
    abortedMidStream: false,
    apiErrorKind: null,
    ...fields,
  };
}

/** A block type name as the model keeps it (lower-case letters and `_`; anything else `other`). */
export function blockName(name: string): string {
  const n = name.replace(/-/g, '_');
  return /^[a-z_]{1,40}$/.test(n) ? n : 'other';
}

export function addBlockType(message: AssistantMessage, name: string): void {
  const n = blockName(name);
  if (!message.blockTypes.includes(n)) message.blockTypes.push(n);
}
