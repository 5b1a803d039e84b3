import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { dismissLiveFindings, noteLiveUpdate } from '../../web/src/api/live-events';
import { LiveNotice } from '../../web/src/components/LiveNotice';

const update = (new_findings: Array<{ id: string; code: string }>) => ({
  files_changed: 1,
  files_removed: 0,
  findings_added: new_findings.length,
  findings_removed: 0,
  new_findings,
  at: '2026-12-03T08:00:00.000Z',
});
const render = () =>
  renderToStaticMarkup(
    <MemoryRouter>
      <LiveNotice />
    </MemoryRouter>,
  );

afterEach(() => dismissLiveFindings());

describe('LiveNotice', () => {
  it('shows nothing until a live update brings a new finding', () => {
    noteLiveUpdate(update([]));
    expect(render()).toBe('');
  });

  it('names the new finding, links to it, and is polite to screen readers', () => {
    noteLiveUpdate(update([{ id: '42-0123456789abcdef', code: 'missing_tool_use_block' }]));
    const html = render();
    expect(html).toContain('role="status"');
    expect(html).toContain('aria-live="polite"');
    expect(html).toContain('href="/findings?code=missing_tool_use_block&amp;finding=42-0123456789abcdef"');
    expect(html).toContain('Dismiss');
  });

  it('counts several, and is gone once dismissed', () => {
    noteLiveUpdate(update([{ id: '1-0123456789abcdef', code: 'orphan_tool_use' }]));
    noteLiveUpdate(update([{ id: '2-0123456789abcdef', code: 'missing_tool_use_block' }]));
    expect(render()).toContain('2 new findings');
    dismissLiveFindings();
    expect(render()).toBe('');
  });
});
