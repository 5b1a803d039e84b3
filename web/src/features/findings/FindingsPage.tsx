import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { Finding } from '../../../../shared/api-schemas';
import { useFindings, useVersions } from '../../api/queries';
import { FilterBar } from '../../components/FilterBar';
import { EmptyState, Loaded } from '../../components/ui';
import { findingHref } from '../../lib/finding-links';
import { formatCount } from '../../lib/format';
import { usePageFilters } from '../../lib/use-page-filters';
import { FindingDetailPanel } from './FindingDetailPanel';
import { FindingList } from './FindingList';

export function FindingsPage() {
  const { search, setParams, filters, mixed } = usePageFilters();
  const sort = search.get('sort') === 'day_asc' ? 'day_asc' : 'day_desc';
  const findings = useFindings(filters, sort);
  const versions = useVersions({});
  const items = findings.data?.pages.flatMap((p) => p.rows) ?? [];
  const total = findings.data?.pages[0]?.total ?? 0;
  const selectedId = search.get('finding');
  const selected = items.find((f) => f.id === selectedId) ?? null;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = findings;
  const onNearEnd = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const setParam = (key: string, value: string | undefined) => setParams({ [key]: value });
  const navigate = useNavigate();
  // On a phone the detail opens as its own view instead of a panel far below the list.
  const open = (f: Finding) => {
    if (window.matchMedia?.('(max-width: 720px)').matches) navigate(findingHref(f.id));
    else setParam('finding', f.id);
  };
  const sortToggle = (
    <label>
      Sort{' '}
      <select value={sort} onChange={(e) => setParam('sort', e.target.value === 'day_asc' ? 'day_asc' : undefined)}>
        <option value="day_desc">newest first</option>
        <option value="day_asc">oldest first</option>
      </select>
    </label>
  );

  return (
    <div className="page">
      <h1>Findings</h1>
      <FilterBar versions={(versions.data?.rows ?? []).flatMap((r) => (r.key ? [r.key] : []))} extra={sortToggle} />
      <Loaded query={findings} height={400}>
        {() =>
          items.length === 0 ? (
            <EmptyState title="No findings">
              <p>No lost tool calls match these filters{search.size ? '; try clearing them' : ''}.</p>
            </EmptyState>
          ) : (
            <div className="findings-layout">
              <div className="card findings-card">
                <div className="muted small" data-testid="findings-total">
                  {formatCount(total)} findings (every copy; “counted” marks the one used in rates)
                </div>
                <FindingList items={items} total={total} selectedId={selectedId} mixed={mixed} onOpen={open} onNearEnd={onNearEnd} />
                {isFetchingNextPage && <div className="muted small">Loading more…</div>}
              </div>
              {selected && <FindingDetailPanel finding={selected} onClose={() => setParam('finding', undefined)} />}
            </div>
          )
        }
      </Loaded>
    </div>
  );
}
