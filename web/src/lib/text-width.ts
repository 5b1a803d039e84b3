/**
 * The width in CSS pixels of one line of text at `fontSize` in the page's font: measured on a
 * canvas where there is one, else a generous estimate (0.65 em a character), so a chart can leave
 * room for its longest label instead of clipping it.
 */
let context: CanvasRenderingContext2D | null | undefined;

export function textWidth(text: string, fontSize: number): number {
  const estimate = text.length * fontSize * 0.65;
  if (context === undefined) {
    try {
      context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      context = null;
    }
  }
  if (!context) return estimate;
  const family = typeof getComputedStyle === 'function' ? getComputedStyle(document.body).fontFamily : '';
  context.font = `${fontSize}px ${family || 'sans-serif'}`;
  const measured = context.measureText(text).width;
  return measured > 0 ? Math.ceil(measured) : estimate;
}
