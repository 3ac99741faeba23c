/** The rectangle or ellipse being dragged out, dashed, in the image's pixels. */
import type { OcclusionPoint } from "@engram/core";
import type { Size } from "./geometry.js";

export function DrawingPreview({
  start,
  end,
  ellipse,
  size,
}: {
  start: OcclusionPoint;
  end: OcclusionPoint;
  ellipse: boolean;
  size: Size;
}) {
  const box = {
    x: Math.min(start.x, end.x) * size.width,
    y: Math.min(start.y, end.y) * size.height,
    width: Math.abs(end.x - start.x) * size.width,
    height: Math.abs(end.y - start.y) * size.height,
  };
  return ellipse ? (
    <ellipse
      className="occlusion-drawing"
      cx={box.x + box.width / 2}
      cy={box.y + box.height / 2}
      rx={box.width / 2}
      ry={box.height / 2}
      vectorEffect="non-scaling-stroke"
    />
  ) : (
    <rect className="occlusion-drawing" {...box} vectorEffect="non-scaling-stroke" />
  );
}
