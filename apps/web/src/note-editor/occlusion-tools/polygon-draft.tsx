/**
 * A polygon being drawn: its points joined in order, a line on to the pointer
 * (or the keyboard's cursor), and the first point ringed larger, since
 * clicking it closes the polygon.
 */
import type { OcclusionPoint } from "@engram/core";
import { pixelPoints, selectionColour } from "./editor-mask.js";
import type { Size } from "./geometry.js";

/** How near the first point (in screen pixels) a click closes the polygon. */
export const closeRadius = 10;

export function PolygonDraft({
  points,
  cursor,
  size,
  scale,
}: {
  points: readonly OcclusionPoint[];
  cursor: OcclusionPoint | null;
  size: Size;
  /** Image pixels per screen pixel, so the rings are a steady size on screen. */
  scale: number;
}) {
  const [first] = points;
  const path = cursor ? [...points, cursor] : points;
  return (
    <g className="occlusion-polygon-draft">
      {path.length > 1 && (
        <polyline
          points={pixelPoints(path, size)}
          fill="none"
          stroke={selectionColour}
          strokeWidth={2}
          strokeDasharray="4 3"
          vectorEffect="non-scaling-stroke"
        />
      )}
      {points.map((point, index) => (
        <circle
          // biome-ignore lint/suspicious/noArrayIndexKey: the points of a draft only grow at the end.
          key={index}
          className={index === 0 ? "occlusion-polygon-start" : undefined}
          cx={point.x * size.width}
          cy={point.y * size.height}
          r={(index === 0 ? closeRadius : 4) * scale}
          fill={index === 0 ? "rgba(255, 255, 255, 0.6)" : selectionColour}
          stroke={index === 0 ? "#c00" : "none"}
          strokeWidth={2}
          vectorEffect="non-scaling-stroke"
        />
      ))}
      {cursor && !first ? (
        <circle
          cx={cursor.x * size.width}
          cy={cursor.y * size.height}
          r={4 * scale}
          fill="none"
          stroke={selectionColour}
          strokeWidth={2}
          vectorEffect="non-scaling-stroke"
        />
      ) : null}
    </g>
  );
}
