/**
 * Image occlusion cards: core's renderCard wraps the image in
 * `<engram-occlusion data-masks="…">` with the masks this side shows (see
 * core's image-occlusion.ts occlusionMasks). These draw them as an SVG over
 * the image, in the image's own pixels so they scale with it, coloured as
 * Anki's reviewer colours them: the asked group red with a "?", the other
 * groups yellow where they stay hidden, the asked group outlined once revealed.
 */
import { type OcclusionMask, occlusionColours, occlusionTag, safeMaskColour } from "@engram/core";
import { type RefObject, useEffect, useLayoutEffect, useMemo, useState } from "react";
import { createPortal } from "react-dom";
import css from "./occlusion.css?inline";
import { labelDefaults, OcclusionLabel } from "./occlusion-label.js";

type Size = { width: number; height: number };

/** The masks in `data-masks`, or none when it is not what core writes. */
function readMasks(element: Element): OcclusionMask[] {
  try {
    const value: unknown = JSON.parse(element.getAttribute("data-masks") ?? "[]");
    return Array.isArray(value) ? value.filter(isMask) : [];
  } catch {
    return [];
  }
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

function isMask(value: unknown): value is OcclusionMask {
  if (typeof value !== "object" || value === null) return false;
  const mask = value as Record<string, unknown>;
  if (!["active", "inactive", "revealed", "label"].includes(String(mask.state))) return false;
  if (!finite(mask.left) || !finite(mask.top) || !finite(mask.angle) || !finite(mask.ordinal)) return false;
  switch (mask.shape) {
    case "rect":
      return finite(mask.width) && finite(mask.height);
    case "ellipse":
      return finite(mask.rx) && finite(mask.ry);
    case "polygon":
      return Array.isArray(mask.points) && mask.points.every((p) => finite(p?.x) && finite(p?.y));
    case "text":
      return typeof mask.text === "string" && finite(mask.scale);
    default:
      return false;
  }
}

/** The image's natural size once it has loaded (0 × 0 before, or when it cannot). */
function useImageSize(element: Element): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useEffect(() => {
    const image = element.querySelector("img");
    if (!image) return;
    const measure = () => {
      if (image.naturalWidth > 0 && image.naturalHeight > 0) {
        setSize({ width: image.naturalWidth, height: image.naturalHeight });
      }
    };
    measure();
    image.addEventListener("load", measure);
    return () => image.removeEventListener("load", measure);
  }, [element]);
  return size;
}

type Box = { x: number; y: number; width: number; height: number };

function boxOf(mask: OcclusionMask, size: Size): Box {
  const { width: w, height: h } = size;
  switch (mask.shape) {
    case "rect":
      return { x: mask.left * w, y: mask.top * h, width: mask.width * w, height: mask.height * h };
    case "ellipse":
      return { x: mask.left * w, y: mask.top * h, width: 2 * mask.rx * w, height: 2 * mask.ry * h };
    case "polygon": {
      const xs = mask.points.map((p) => p.x * w);
      const ys = mask.points.map((p) => p.y * h);
      const [minX, minY] = [Math.min(...xs), Math.min(...ys)];
      return {
        x: mask.left * w,
        y: mask.top * h,
        width: Math.max(...xs) - minX,
        height: Math.max(...ys) - minY,
      };
    }
    case "text":
      return { x: mask.left * w, y: mask.top * h, width: 0, height: 0 };
  }
}

/** Anki places a polygon's points so that their top left is (left, top). */
function polygonPoints(points: { x: number; y: number }[], left: number, top: number, size: Size): string {
  const minX = Math.min(...points.map((p) => p.x));
  const minY = Math.min(...points.map((p) => p.y));
  return points.map((p) => `${(p.x - minX + left) * size.width},${(p.y - minY + top) * size.height}`).join(" ");
}

function paint(mask: OcclusionMask) {
  switch (mask.state) {
    case "active":
      return { fill: occlusionColours.active, stroke: occlusionColours.border, strokeWidth: 1 };
    case "inactive":
      return {
        fill: safeMaskColour(mask.fill) ?? occlusionColours.inactive,
        stroke: occlusionColours.border,
        strokeWidth: 1,
      };
    default:
      return { fill: "none", stroke: occlusionColours.highlight, strokeWidth: 2 };
  }
}

function MaskShape({ mask, size }: { mask: OcclusionMask; size: Size }) {
  const box = boxOf(mask, size);
  const rotate = mask.angle ? `rotate(${mask.angle} ${box.x} ${box.y})` : undefined;
  const common = {
    "data-state": mask.state,
    "data-ordinal": mask.ordinal,
    vectorEffect: "non-scaling-stroke",
    ...paint(mask),
  };
  if (mask.shape === "text") {
    return (
      <OcclusionLabel
        state={mask.state}
        ordinal={mask.ordinal}
        text={mask.text}
        x={box.x}
        y={box.y}
        fontSize={mask.fontSize ? mask.fontSize * size.height : labelDefaults.fontSize}
        scale={mask.scale}
        angle={mask.angle}
        fill={safeMaskColour(mask.fill)}
      />
    );
  }
  const shape =
    mask.shape === "rect" ? (
      <rect {...common} x={box.x} y={box.y} width={box.width} height={box.height} transform={rotate} />
    ) : mask.shape === "ellipse" ? (
      <ellipse
        {...common}
        cx={box.x + box.width / 2}
        cy={box.y + box.height / 2}
        rx={box.width / 2}
        ry={box.height / 2}
        transform={rotate}
      />
    ) : (
      <polygon {...common} points={polygonPoints(mask.points, mask.left, mask.top, size)} />
    );
  if (mask.state !== "active") return shape;
  const questionSize = Math.max(8, Math.min(box.width, box.height) * 0.6);
  return (
    <g>
      {shape}
      <text
        className="occlusion-question"
        x={box.x + box.width / 2}
        y={box.y + box.height / 2}
        transform={rotate}
        fontSize={questionSize}
        textAnchor="middle"
        dominantBaseline="central"
        fill={occlusionColours.border}
      >
        ?
      </text>
    </g>
  );
}

function Masks({ element }: { element: Element }) {
  const size = useImageSize(element);
  const masks = useMemo(() => readMasks(element), [element]);
  if (!size) return null;
  const side = element.getAttribute("data-side") === "back" ? "back" : "front";
  const asked = masks.filter((mask) => mask.state === "active" || mask.state === "revealed").length;
  const labels = masks.flatMap((mask) => (mask.shape === "text" ? [`"${mask.text}"`] : []));
  const label =
    (side === "front"
      ? `Masks over the image: ${asked} to recall, marked with a question mark`
      : `Masks over the image: the ${asked === 1 ? "area" : "areas"} asked about outlined`) +
    (labels.length > 0 ? `; ${labels.length === 1 ? "label" : "labels"} ${labels.join(", ")}` : "");
  return (
    <svg
      className="occlusion-masks"
      viewBox={`0 0 ${size.width} ${size.height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      {masks.map((mask, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the masks of a face never reorder; the face is rebuilt instead.
        <MaskShape key={index} mask={mask} size={size} />
      ))}
    </svg>
  );
}

/** The occlusion containers in the face, found again whenever its HTML is set anew. */
function useContainers(face: RefObject<HTMLElement | null>, html: string): Element[] {
  const [found, setFound] = useState<Element[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: html is the trigger: the face's children are replaced when it changes.
  useLayoutEffect(() => {
    const now = [...(face.current?.querySelectorAll(occlusionTag) ?? [])];
    setFound((old) => (old.length === now.length && old.every((element, i) => element === now[i]) ? old : now));
  }, [face, html]);
  return found;
}

export function OcclusionMasks(props: { face: RefObject<HTMLElement | null>; html: string }) {
  const containers = useContainers(props.face, props.html);
  if (containers.length === 0) return null;
  return (
    <>
      <style>{css}</style>
      {containers.map((element, index) => createPortal(<Masks element={element} />, element, `${index}`))}
    </>
  );
}
