// Starts the first view's data requests while the page's JavaScript is still loading (issue 32): on
// the overview with no filters, the summary, the verdict cards and the versions. The page's API client
// (web/src/api/client.ts) takes each answer once, by its exact path, instead of asking again. Plain,
// classic JavaScript, loaded from /assets/ before the page's modules (the CSP allows 'self' scripts only).
(() => {
  if (location.pathname !== '/' || location.search !== '') return;
  const early = {};
  for (const path of ['/api/summary', '/api/regressions', '/api/versions']) {
    early[path] = fetch(path, { headers: { accept: 'application/json' } });
    // A failure is the client's to report when it takes the answer; never an unhandled rejection here.
    early[path].catch(() => {});
  }
  window.__tcfEarly = early;
})();
