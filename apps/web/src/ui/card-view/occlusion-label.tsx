/**
 * An image occlusion label (a text shape) as Anki's reviewer draws it
 * (review.ts drawShape): Arial, each line 1.5 × the height of an "M" below
 * the last, on a white box 5 px (scaled with the text) wider and taller than
 * the text, turned about its top left corner. Used by the study overlay and
 * the editor alike, in the image's own pixels.
 */
import { type PointerEvent, useLayoutEffect, useRef, useState } from "react";

/** Anki's text constants (image-occlusion tools/lib.ts). */
const padding = 5;
const lineHeight = 1.07;
export const labelDefaults = { fontSize: 40, colour: "#000000", background: "#ffffff" } as const;

export function OcclusionLabel({
  text,
  x,
  y,
  fontSize,
  scale,
  angle,
  fill,
  className,
  state,
  ordinal,
  outline,
  onPointerDown,
}: {
  text: string;
  x: number;
  y: number;
  /** The font's size in the image's pixels, before `scale`. */
  fontSize: number;
  scale: number;
  angle: number;
  fill?: string;
  className?: string;
  state?: string;
  ordinal?: number;
  /** A border round the box (the editor marks its selected label so). */
  outline?: { colour: string; width: number };
  onPointerDown?: (event: PointerEvent<SVGGElement>) => void;
}) {
  const lines = text.split("\n");
  const size = fontSize * scale;
  const textRef = useRef<SVGTextElement>(null);
  const estimate = 0.55 * size * Math.max(...lines.map((line) => line.length));
  const [width, setWidth] = useState(estimate);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the text and its size are what change its width.
  useLayoutEffect(() => {
    const measured = textRef.current?.getBBox().width ?? 0;
    setWidth(measured > 0 ? measured : estimate);
  }, [text, size, estimate]);
  const boxPadding = padding * scale;
  return (
    <g
      className={className}
      data-state={state}
      data-ordinal={ordinal}
      transform={angle ? `rotate(${angle} ${x} ${y})` : undefined}
      onPointerDown={onPointerDown}
    >
      <rect
        x={x}
        y={y}
        width={width + boxPadding}
        height={lines.length * lineHeight * size + boxPadding}
        fill={labelDefaults.background}
        stroke={outline?.colour ?? "none"}
        strokeWidth={outline?.width ?? 0}
        vectorEffect="non-scaling-stroke"
      />
      <text
        ref={textRef}
        x={x}
        y={y}
        fontFamily="Arial, Helvetica, sans-serif"
        fontSize={size}
        dominantBaseline="text-before-edge"
        fill={fill ?? labelDefaults.colour}
      >
        {lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a label's lines are its text split, rebuilt when it changes.
          <tspan key={index} x={x} y={y + index * lineHeight * size}>
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}
