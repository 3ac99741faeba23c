/**
 * What the occlusion editor does to a shape, in Anki's stored terms: positions
 * and sizes as fractions of the image (0..1), angles in degrees clockwise about
 * (left, top). Turning happens in the image's pixels, so a shape keeps its form
 * on an image that is not square.
 */
import type { OcclusionPoint, OcclusionShape } from "@engram/core";

export type Size = { width: number; height: number };
export type Box = { left: number; top: number; width: number; height: number };

export const minimumSize = 0.01;
const minimumScale = 0.2;
const maximumScale = 10;
export const clamp = (value: number) => Math.min(1, Math.max(0, value));

type Boxed = OcclusionShape & { shape: "rect" | "ellipse" };
type Polygon = OcclusionShape & { shape: "polygon" };

export const nextOrdinal = (shapes: readonly OcclusionShape[]) =>
  Math.max(0, ...shapes.map((shape) => shape.ordinal)) + 1;

/** A rectangle's or ellipse's box in 0..1 of the image. */
export function boxOf(shape: Boxed): Box {
  return shape.shape === "rect"
    ? { left: shape.left, top: shape.top, width: shape.width, height: shape.height }
    : { left: shape.left, top: shape.top, width: shape.rx * 2, height: shape.ry * 2 };
}

/** The shape with a new box; an upright one stays on the image, a turned one keeps its corner. */
export function withBox<S extends Boxed>(shape: S, box: Box): S {
  const width = Math.max(minimumSize, Math.min(box.width, 1));
  const height = Math.max(minimumSize, Math.min(box.height, 1));
  const upright = shape.angle === 0;
  const left = upright ? Math.min(clamp(box.left), 1 - width) : clamp(box.left);
  const top = upright ? Math.min(clamp(box.top), 1 - height) : clamp(box.top);
  return shape.shape === "rect"
    ? { ...shape, left, top, width, height }
    : { ...shape, left, top, rx: width / 2, ry: height / 2 };
}

/** A polygon as Anki stores it: (left, top) is the top left of its points. */
export function polygonFrom<S extends Polygon>(shape: S, points: OcclusionPoint[]): S {
  return {
    ...shape,
    points,
    left: Math.min(...points.map((point) => point.x)),
    top: Math.min(...points.map((point) => point.y)),
  };
}

function pointsBox(points: readonly OcclusionPoint[]): Box {
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return { left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
}

/** The shape moved by (dx, dy), kept on the image. */
export function moveShape(shape: OcclusionShape, dx: number, dy: number): OcclusionShape {
  switch (shape.shape) {
    case "rect":
    case "ellipse": {
      const box = boxOf(shape);
      return withBox(shape, { ...box, left: box.left + dx, top: box.top + dy });
    }
    case "polygon": {
      if (shape.points.length === 0) return shape;
      const box = pointsBox(shape.points);
      const x = Math.min(Math.max(dx, -box.left), 1 - box.left - box.width);
      const y = Math.min(Math.max(dy, -box.top), 1 - box.top - box.height);
      return polygonFrom(
        shape,
        shape.points.map((point) => ({ x: point.x + x, y: point.y + y })),
      );
    }
    case "text":
      return { ...shape, left: clamp(shape.left + dx), top: clamp(shape.top + dy) };
  }
}

/** The shape made wider by dx and taller by dy; a label grows with either. */
export function resizeShape(shape: OcclusionShape, dx: number, dy: number): OcclusionShape {
  switch (shape.shape) {
    case "rect":
    case "ellipse": {
      const box = boxOf(shape);
      return withBox(shape, { ...box, width: box.width + dx, height: box.height + dy });
    }
    case "polygon": {
      if (shape.points.length === 0) return shape;
      const box = pointsBox(shape.points);
      const width = Math.min(Math.max(minimumSize, box.width + dx), 1 - box.left);
      const height = Math.min(Math.max(minimumSize, box.height + dy), 1 - box.top);
      const sx = box.width > 0 ? width / box.width : 1;
      const sy = box.height > 0 ? height / box.height : 1;
      return polygonFrom(
        shape,
        shape.points.map((point) => ({
          x: box.left + (point.x - box.left) * sx,
          y: box.top + (point.y - box.top) * sy,
        })),
      );
    }
    case "text": {
      const scale = shape.scale + (dx - dy) * 10;
      return { ...shape, scale: Math.min(maximumScale, Math.max(minimumScale, Number(scale.toFixed(4)))) };
    }
  }
}

/** A label's size as its scale, within what the editor offers. */
export function withScale(shape: OcclusionShape & { shape: "text" }, scale: number): OcclusionShape {
  return { ...shape, scale: Math.min(maximumScale, Math.max(minimumScale, scale)) };
}

/** Degrees in 0 ≤ angle < 360. */
export function normalAngle(degrees: number): number {
  const turned = degrees % 360;
  return turned < 0 ? turned + 360 : turned;
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** (x, y) turned clockwise on screen (y down) by `degrees`, as SVG's rotate() and canvas rotate() turn. */
function turn(x: number, y: number, degrees: number): { x: number; y: number } {
  const cos = Math.cos(radians(degrees));
  const sin = Math.sin(radians(degrees));
  return { x: x * cos - y * sin, y: x * sin + y * cos };
}

/**
 * The point a shape turns about, in the image's pixels: a rectangle's or
 * ellipse's centre, a polygon's centroid, a label's anchor; and how far above
 * that point the shape reaches when upright (where a turning handle goes).
 */
export function turnCentre(shape: OcclusionShape, size: Size): { x: number; y: number; reach: number } {
  const { width: w, height: h } = size;
  switch (shape.shape) {
    case "rect":
    case "ellipse": {
      const box = boxOf(shape);
      const half = { x: (box.width * w) / 2, y: (box.height * h) / 2 };
      const from = turn(half.x, half.y, shape.angle);
      return { x: box.left * w + from.x, y: box.top * h + from.y, reach: half.y };
    }
    case "polygon": {
      const x = (shape.points.reduce((sum, point) => sum + point.x, 0) / shape.points.length) * w;
      const y = (shape.points.reduce((sum, point) => sum + point.y, 0) / shape.points.length) * h;
      const reach = Math.max(0, ...shape.points.map((point) => Math.hypot(point.x * w - x, point.y * h - y)));
      return { x, y, reach };
    }
    case "text":
      return { x: shape.left * w, y: shape.top * h, reach: 0 };
  }
}

/** Where a handle at `offset` pixels straight above the turning point is once the shape is turned. */
export function handlePoint(shape: OcclusionShape, size: Size, offset: number): { x: number; y: number } {
  const centre = turnCentre(shape, size);
  const arm = turn(0, -(centre.reach + offset), shape.angle);
  return { x: centre.x + arm.x, y: centre.y + arm.y };
}

/** The angle that points a handle from the turning point at (x, y), in whole degrees. */
export function angleTowards(shape: OcclusionShape, size: Size, x: number, y: number): number {
  const centre = turnCentre(shape, size);
  const degrees = (Math.atan2(y - centre.y, x - centre.x) * 180) / Math.PI + 90;
  return Math.round(normalAngle(degrees));
}

/**
 * The shape turned to `degrees`. A rectangle or ellipse turns about its centre
 * (its stored corner moves to match); a label about the point it is anchored
 * at. Anki's reviewer ignores a polygon's angle, so a polygon's points are
 * turned instead, about their centroid, and its `angle` only remembers how far
 * (serialised as 0: see storedShape).
 */
export function rotateShape(shape: OcclusionShape, degrees: number, size: Size): OcclusionShape {
  const angle = normalAngle(degrees);
  const { width: w, height: h } = size;
  switch (shape.shape) {
    case "rect":
    case "ellipse": {
      const box = boxOf(shape);
      const centre = turnCentre(shape, size);
      const to = turn((box.width * w) / 2, (box.height * h) / 2, angle);
      return { ...shape, angle, left: (centre.x - to.x) / w, top: (centre.y - to.y) / h };
    }
    case "polygon": {
      if (shape.points.length === 0) return shape;
      const centre = turnCentre(shape, size);
      const by = angle - shape.angle;
      const points = shape.points.map((point) => {
        const turned = turn(point.x * w - centre.x, point.y * h - centre.y, by);
        return { x: (centre.x + turned.x) / w, y: (centre.y + turned.y) / h };
      });
      return { ...polygonFrom(shape, points), angle };
    }
    case "text":
      return { ...shape, angle };
  }
}

/** The shape as it is written to the field: a polygon's turn is already in its points. */
export function storedShape(shape: OcclusionShape): OcclusionShape {
  return shape.shape === "polygon" && shape.points.length > 0
    ? { ...polygonFrom(shape, shape.points), angle: 0 }
    : shape;
}

/**
 * Shapes read from the field, ready to edit. Anki draws a polygon's points
 * moved so their top left is (left, top), and never turns it; the editor puts
 * the points where they are drawn and drops the angle.
 */
export function editableShapes(shapes: readonly OcclusionShape[]): OcclusionShape[] {
  return shapes.map((shape) => {
    if (shape.shape !== "polygon" || shape.points.length === 0) return shape;
    const box = pointsBox(shape.points);
    const [dx, dy] = [shape.left - box.left, shape.top - box.top];
    return { ...shape, angle: 0, points: shape.points.map((point) => ({ x: point.x + dx, y: point.y + dy })) };
  });
}
