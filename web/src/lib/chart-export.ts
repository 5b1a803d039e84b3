/** Turning an on-screen chart into a standalone SVG or PNG file for a bug report. */

/** The chart's SVG as a standalone document: theme variables resolved to colours, a background added. */
export function standaloneSvg(svg: SVGSVGElement, styles: Pick<CSSStyleDeclaration, 'getPropertyValue'> = getComputedStyle(document.documentElement)): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const width = svg.getAttribute('width') ?? String(svg.clientWidth);
  const height = svg.getAttribute('height') ?? String(svg.clientHeight);
  const text = new XMLSerializer().serializeToString(clone);
  return resolveThemeColors(text, styles).replace(
    /(<svg[^>]*>)/,
    `$1<rect x="0" y="0" width="${width}" height="${height}" fill="${styles.getPropertyValue('--surface').trim() || '#ffffff'}"/>`,
  );
}

/** Replaces `var(--name)` with the theme's value, so the file looks the same outside the page. */
export function resolveThemeColors(text: string, styles: Pick<CSSStyleDeclaration, 'getPropertyValue'>): string {
  return text.replace(/var\((--[a-z0-9-]+)\)/g, (_m, name: string) => styles.getPropertyValue(name).trim() || '#888888');
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

export function downloadSvg(svg: SVGSVGElement, filename: string): void {
  download(filename, new Blob([standaloneSvg(svg)], { type: 'image/svg+xml' }));
}

export async function downloadPng(svg: SVGSVGElement, filename: string, scale = 2): Promise<void> {
  const text = standaloneSvg(svg);
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('the chart could not be drawn'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(image.width * scale);
    canvas.height = Math.round(image.height * scale);
    const ctx = canvas.getContext('2d')!;
    ctx.scale(scale, scale);
    ctx.drawImage(image, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (blob) download(filename, blob);
  } finally {
    URL.revokeObjectURL(url);
  }
}
