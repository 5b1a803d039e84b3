import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../../shared/finding-codes';
import { GLOSSARY } from '../../shared/glossary';
import { GlossaryPage } from '../../web/src/features/glossary/GlossaryPage';

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');

describe('one vocabulary, written down once', () => {
  it("the README's glossary lists exactly the terms of shared/glossary.ts, with the same meanings", () => {
    const start = readme.indexOf('\n## Glossary\n');
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start + 1).split('\n## ')[0]!;
    const entries = [...section.matchAll(/^- \*\*([a-z -]+)\*\*: (.+)$/gm)].map((m) => ({ term: m[1]!, meaning: m[2]! }));
    expect(entries).toEqual(GLOSSARY.map(({ term, meaning }) => ({ term, meaning })));
  });

  it('the Glossary page shows every term and every code', () => {
    const html = renderToStaticMarkup(<GlossaryPage />);
    for (const { term } of GLOSSARY) expect(html).toContain(`<strong>${term}</strong>`);
    for (const code of FINDING_CODES) expect(html).toContain(`id="${code}"`);
  });

  it('the retired words are gone from the page: no "Sources" page, no "root" in what it says, no "scan" for an index run', () => {
    const files = [
      'app/App.tsx',
      'features/folders/FoldersPage.tsx',
      'features/overview/OverviewPage.tsx',
      'features/files/FilesPage.tsx',
      'components/ui.tsx',
      'components/IndexRunProgress.tsx',
    ];
    for (const f of files) {
      const text = readFileSync(join(import.meta.dirname, '../../web/src', f), 'utf8');
      expect(text, f).not.toMatch(/['"/>]Sources\b|\/sources\b/);
      expect(text, f).not.toMatch(/\/api\/roots|\/api\/scans|root_id/);
      // The page indexes; "scan" is only the command that reads without storing (the scanner module may be named).
      expect(text, f).not.toMatch(/\bscan(s|ning|ned)?\b/i);
    }
  });
});
