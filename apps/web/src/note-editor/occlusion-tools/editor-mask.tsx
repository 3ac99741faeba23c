/** One shape on the editor's image, drawn in the image's pixels as study draws it, marked when selected. */
import { type OcclusionPoint, type OcclusionShape, occlusionColours, safeMaskColour } from "@engram/core";
import type { PointerEvent } from "react";
import { labelDefaults, OcclusionLabel } from "../../ui/card-view/occlusion-label.js";
import { boxOf, type Size } from "./geometry.js";

export const selectionColour = "#1d4ed8";

export const pixelPoints = (points: readonly OcclusionPoint[], size: Size) =>
  points.map((point) => `${point.x * size.width},${point.y * size.height}`).join(" ");

export function EditorMask({
  shape,
  size,
  selected,
  onPointerDown,
}: {
  shape: OcclusionShape;
  size: Size;
  selected: boolean;
  onPointerDown: (event: PointerEvent<SVGElement>) => void;
}) {
  const { width: w, height: h } = size;
  const className = `occlusion-mask${selected ? " selected" : ""}`;
  if (shape.shape === "text") {
    return (
      <OcclusionLabel
        className={className}
        ordinal={shape.ordinal}
        text={shape.text}
        x={shape.left * w}
        y={shape.top * h}
        fontSize={shape.fontSize ? shape.fontSize * h : labelDefaults.fontSize}
        scale={shape.scale}
        angle={shape.angle}
        fill={safeMaskColour(shape.fill)}
        outline={selected ? { colour: selectionColour, width: 3 } : { colour: occlusionColours.border, width: 1 }}
        onPointerDown={onPointerDown}
      />
    );
  }
  const common = {
    className,
    "data-ordinal": shape.ordinal,
    "data-shape": shape.shape,
    fill: occlusionColours.inactive,
    fillOpacity: 0.8,
    stroke: selected ? selectionColour : occlusionColours.border,
    strokeWidth: selected ? 3 : 1,
    vectorEffect: "non-scaling-stroke" as const,
    onPointerDown,
  };
  if (shape.shape === "polygon") return <polygon {...common} points={pixelPoints(shape.points, size)} />;
  const box = boxOf(shape);
  const [x, y, width, height] = [box.left * w, box.top * h, box.width * w, box.height * h];
  const transform = shape.angle ? `rotate(${shape.angle} ${x} ${y})` : undefined;
  return shape.shape === "rect" ? (
    <rect {...common} x={x} y={y} width={width} height={height} transform={transform} />
  ) : (
    <ellipse {...common} cx={x + width / 2} cy={y + height / 2} rx={width / 2} ry={height / 2} transform={transform} />
  );
}
