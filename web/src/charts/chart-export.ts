/** Turning an on-screen chart into a standalone SVG or PNG file for a bug report: the real chart, with a title and its legend. */

export type ExportTheme = 'light' | 'dark';

/** The page's theme colours (styles.css), so a chart can be exported in either theme whatever the page shows. */
export const THEME_COLORS: Record<ExportTheme, Record<string, string>> = {
  light: {
    '--bg': '#f6f7f9',
    '--surface': '#ffffff',
    '--text': '#1b1f24',
    '--muted': '#5b6470',
    '--border': '#d8dde3',
    '--grid': '#e6e9ee',
    '--bar': '#c9d3df',
    '--accent': '#0b62c4',
  },
  dark: {
    '--bg': '#0f1216',
    '--surface': '#171b21',
    '--text': '#e6e9ee',
    '--muted': '#9aa4b1',
    '--border': '#2b323c',
    '--grid': '#242a33',
    '--bar': '#334155',
    '--accent': '#5aa7ff',
  },
};

const themeStyles = (theme: ExportTheme): Pick<CSSStyleDeclaration, 'getPropertyValue'> => ({
  getPropertyValue: (name: string) => THEME_COLORS[theme][name] ?? '',
});

/** Replaces `var(--name)` with the theme's value, so the file looks the same outside the page. */
export function resolveThemeColors(text: string, styles: Pick<CSSStyleDeclaration, 'getPropertyValue'>): string {
  return text.replace(/var\((--[a-z0-9-]+)\)/g, (_m, name: string) => styles.getPropertyValue(name).trim() || '#888888');
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * The chart's drawing surface inside `container`: the largest recharts SVG. (Legend icons are
 * small SVGs too, and come first in the document: taking the first one saved a 14×14 icon.)
 */
export function chartSvg(container: Element | null): SVGSVGElement | null {
  if (!container) return null;
  const all = [...container.querySelectorAll<SVGSVGElement>('svg')];
  const area = (s: SVGSVGElement) => (Number(s.getAttribute('width')) || s.clientWidth) * (Number(s.getAttribute('height')) || s.clientHeight);
  return all.filter((s) => !s.closest('.recharts-legend-wrapper')).sort((a, b) => area(b) - area(a))[0] ?? null;
}

export interface LegendEntry {
  label: string;
  color: string;
}

/** The legend as the chart shows it (CodeLegend draws it in HTML, outside the SVG): each code with its colour, then the bars. */
export function legendOf(container: Element | null): LegendEntry[] {
  if (!container) return [];
  const codes = [...container.querySelectorAll('[data-testid="chart-legend"] li[data-code]')].map((item) => ({
    label: item.querySelector('.legend-item')?.textContent?.trim() ?? item.getAttribute('data-code') ?? '',
    color: item.querySelector('.legend-swatch line')?.getAttribute('stroke') ?? '#888888',
  }));
  return container.querySelector('.denominator-bar') ? [...codes, { label: 'tool-use turns', color: 'var(--bar)' }] : codes;
}

/**
 * A standalone SVG document: a background in the chosen theme, the title on top, the chart
 * itself (theme variables resolved), and its legend below, wrapped to the chart's width.
 */
export function standaloneSvg(svg: SVGSVGElement, options: { title?: string; legend?: LegendEntry[]; theme?: ExportTheme } = {}): string {
  const theme = options.theme ?? 'light';
  const styles = themeStyles(theme);
  const width = Number(svg.getAttribute('width')) || svg.clientWidth || 800;
  const height = Number(svg.getAttribute('height')) || svg.clientHeight || 320;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('x', '0');
  clone.setAttribute('y', options.title ? '36' : '0');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.removeAttribute('style');
  const inner = resolveThemeColors(new XMLSerializer().serializeToString(clone), styles);
  const legend = options.legend ?? [];
  const perRow = Math.max(1, Math.floor(width / 240));
  const legendTop = (options.title ? 36 : 0) + height + 8;
  const legendHeight = legend.length ? Math.ceil(legend.length / perRow) * 20 + 8 : 0;
  const total = legendTop + legendHeight;
  const colors = THEME_COLORS[theme];
  const items = legend
    .map((e, i) => {
      const x = 12 + (i % perRow) * 240;
      const y = legendTop + Math.floor(i / perRow) * 20 + 10;
      return `<g class="export-legend-item"><line x1="${x}" y1="${y}" x2="${x + 18}" y2="${y}" stroke="${escapeXml(resolveThemeColors(e.color, styles))}" stroke-width="3"/><text x="${x + 24}" y="${y + 4}" font-size="12" fill="${colors['--text']}" font-family="system-ui, sans-serif">${escapeXml(e.label)}</text></g>`;
    })
    .join('');
  const title = options.title
    ? `<text class="export-title" x="12" y="24" font-size="15" font-weight="600" fill="${colors['--text']}" font-family="system-ui, sans-serif">${escapeXml(options.title)}</text>`
    : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${total}" viewBox="0 0 ${width} ${total}">` +
    `<rect x="0" y="0" width="${width}" height="${total}" fill="${colors['--surface']}"/>${title}${inner}${items}</svg>`
  );
}

export function download(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export type ChartExportOptions = Parameters<typeof standaloneSvg>[1];

export function downloadSvg(svg: SVGSVGElement, filename: string, options: ChartExportOptions = {}): void {
  download(filename, new Blob([standaloneSvg(svg, options)], { type: 'image/svg+xml' }));
}

/** The same document drawn at `scale` (2×: sharp on high-density screens and in issues). */
export async function downloadPng(svg: SVGSVGElement, filename: string, options: ChartExportOptions = {}, scale = 2): Promise<void> {
  const text = standaloneSvg(svg, options);
  const size = /width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)"/.exec(text)!;
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('the chart could not be drawn'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(Number(size[1]) * scale);
    canvas.height = Math.round(Number(size[2]) * scale);
    const ctx = canvas.getContext('2d')!;
    ctx.scale(scale, scale);
    ctx.drawImage(image, 0, 0, Number(size[1]), Number(size[2]));
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (blob) download(filename, blob);
  } finally {
    URL.revokeObjectURL(url);
  }
}
