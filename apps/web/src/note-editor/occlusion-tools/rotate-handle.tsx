/** A handle above the selected shape: dragging it turns the shape, as Anki's editor's turning control does. */
import type { OcclusionShape } from "@engram/core";
import type { PointerEvent } from "react";
import { selectionColour } from "./editor-mask.js";
import { handlePoint, type Size, turnCentre } from "./geometry.js";

/** How far (in screen pixels) the handle stands off the shape. */
const standOff = 24;

export function RotateHandle({
  shape,
  size,
  scale,
  onPointerDown,
}: {
  shape: OcclusionShape;
  size: Size;
  /** Image pixels per screen pixel, so the handle is a steady size on screen. */
  scale: number;
  onPointerDown: (event: PointerEvent<SVGElement>) => void;
}) {
  if (shape.shape === "polygon" && shape.points.length === 0) return null;
  const centre = turnCentre(shape, size);
  const handle = handlePoint(shape, size, standOff * scale);
  return (
    <g className="occlusion-rotate-handle">
      <line
        x1={centre.x}
        y1={centre.y}
        x2={handle.x}
        y2={handle.y}
        stroke={selectionColour}
        strokeWidth={1}
        strokeDasharray="3 3"
        vectorEffect="non-scaling-stroke"
        pointerEvents="none"
      />
      <circle
        cx={handle.x}
        cy={handle.y}
        r={7 * scale}
        fill="#fff"
        stroke={selectionColour}
        strokeWidth={2}
        vectorEffect="non-scaling-stroke"
        onPointerDown={onPointerDown}
      />
    </g>
  );
}
