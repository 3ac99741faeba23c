/** One canvas for every measurement: drawing nothing, it only knows fonts. */
let context: CanvasRenderingContext2D | null | undefined;

/**
 * How wide `text` is in `font` (a CSS font shorthand), so axis labels can be
 * spaced before they are drawn. Without a canvas, an estimate from the length.
 */
export function textWidth(text: string, font: string): number {
  if (context === undefined) context = globalThis.document?.createElement("canvas").getContext("2d") ?? null;
  if (!context) return text.length * 7;
  context.font = font;
  return context.measureText(text).width;
}
