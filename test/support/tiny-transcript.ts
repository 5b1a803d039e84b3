/**
 * The smallest transcript there is: one assistant row of ~218 bytes, answered in text (no payload
 * worth a canary). What the scale benchmark and the tests of many-file folders write by the
 * thousand; `id` makes each message distinct.
 */
export function tinyAssistantRow(id: string): string {
  return JSON.stringify({
    type: 'assistant',
    timestamp: '2026-05-01T10:00:00.000Z',
    version: '2.1.40',
    message: { id, role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' },
  });
}
