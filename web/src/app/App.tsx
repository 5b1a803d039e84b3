import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { BrowserRouter, NavLink, Route, Routes } from 'react-router';
import { useIndexRunEvents } from '../api/index-run-events';
import { useHealth, useIndexRunState } from '../api/queries';
import { IndexRunProgress } from '../components/IndexRunProgress';
import { LiveNotice } from '../components/LiveNotice';
import { ReadOnlyBanner } from '../components/ReadOnlyBanner';
import { Skeleton } from '../components/ui';
import { OverviewPage } from '../features/overview/OverviewPage';

// The first page loads with the app; the others load when opened.
const TimelinePage = lazy(() => import('../features/timeline/TimelinePage').then((m) => ({ default: m.TimelinePage })));
const VersionsPage = lazy(() => import('../features/versions/VersionsPage').then((m) => ({ default: m.VersionsPage })));
const FindingsPage = lazy(() => import('../features/findings/FindingsPage').then((m) => ({ default: m.FindingsPage })));
const FilesPage = lazy(() => import('../features/files/FilesPage').then((m) => ({ default: m.FilesPage })));
const ComparePage = lazy(() => import('../features/compare/ComparePage').then((m) => ({ default: m.ComparePage })));
const EvidencePage = lazy(() => import('../features/evidence/EvidencePage').then((m) => ({ default: m.EvidencePage })));
const GlossaryPage = lazy(() => import('../features/glossary/GlossaryPage').then((m) => ({ default: m.GlossaryPage })));
const FindingPage = lazy(() => import('../features/finding/FindingPage').then((m) => ({ default: m.FindingPage })));
const SessionPage = lazy(() => import('../features/session/SessionPage').then((m) => ({ default: m.SessionPage })));
const FoldersPage = lazy(() => import('../features/folders/FoldersPage').then((m) => ({ default: m.FoldersPage })));

const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } } });

const NAV = [
  ['/', 'Overview'],
  ['/timeline', 'Timeline'],
  ['/versions', 'Versions'],
  ['/compare', 'Compare'],
  ['/findings', 'Findings'],
  ['/evidence', 'Evidence'],
  ['/files', 'Files'],
  ['/folders', 'Folders'],
  ['/glossary', 'Glossary'],
] as const;

function Shell() {
  useIndexRunEvents();
  const health = useHealth();
  const indexRun = useIndexRunState();
  return (
    <>
      <header className="topbar">
        <a className="skip" href="#main">
          Skip to content
        </a>
        <span className="brand">tool-call-forensics</span>
        {health.data?.demo && (
          <span className="badge badge-demo" title="Generated demo transcripts, not real sessions">
            demo data
          </span>
        )}
        <nav aria-label="Pages">
          {NAV.map(([to, label]) => (
            <NavLink key={to} to={to} end={to === '/'}>
              {label}
            </NavLink>
          ))}
        </nav>
      </header>
      <ReadOnlyBanner health={health.data} />
      {indexRun.data?.state === 'running' && (
        <div className="topbar-progress">
          <IndexRunProgress state={indexRun.data} />
        </div>
      )}
      <LiveNotice />
      <main id="main">
        <Suspense fallback={<Skeleton height={320} />}>
          <Routes>
            <Route path="/" element={<OverviewPage />} />
            <Route path="/timeline" element={<TimelinePage />} />
            <Route path="/versions" element={<VersionsPage />} />
            <Route path="/compare" element={<ComparePage />} />
            <Route path="/findings" element={<FindingsPage />} />
            <Route path="/findings/:id" element={<FindingPage />} />
            <Route path="/sessions/:hash" element={<SessionPage />} />
            <Route path="/evidence" element={<EvidencePage />} />
            <Route path="/files" element={<FilesPage />} />
            <Route path="/folders" element={<FoldersPage />} />
            <Route path="/glossary" element={<GlossaryPage />} />
            <Route
              path="*"
              element={
                <p>
                  No such page. <NavLink to="/">Go to the overview</NavLink>.
                </p>
              }
            />
          </Routes>
        </Suspense>
      </main>
      <footer className="footer muted small">
        Metadata only: no message text, thinking, tool input or output, and no path outside your folders ever reaches this page.
        {health.data && ` · v${health.data.tool_version}, detector definitions v${health.data.detector_definitions_version}`}
      </footer>
    </>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Shell />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
