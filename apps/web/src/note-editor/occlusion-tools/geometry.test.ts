import type { OcclusionShape } from "@engram/core";
import { parseOcclusions, serializeOcclusions } from "@engram/core";
import { describe, expect, it } from "vitest";
import {
  angleTowards,
  editableShapes,
  handlePoint,
  moveShape,
  resizeShape,
  rotateShape,
  storedShape,
} from "./geometry.js";

const base = { ordinal: 1, occludeInactive: false, angle: 0 };
const rect: OcclusionShape = { ...base, shape: "rect", left: 0.1, top: 0.2, width: 0.4, height: 0.2 };
const triangle: OcclusionShape = {
  ...base,
  shape: "polygon",
  left: 0.2,
  top: 0.2,
  points: [
    { x: 0.2, y: 0.2 },
    { x: 0.6, y: 0.2 },
    { x: 0.4, y: 0.5 },
  ],
};
const label: OcclusionShape = { ...base, ordinal: 0, shape: "text", left: 0.5, top: 0.5, text: "Aorta", scale: 1 };
const size = { width: 400, height: 300 };

/** A rectangle's centre in pixels, wherever it is turned. */
function centre(shape: OcclusionShape) {
  if (shape.shape !== "rect") throw new Error("not a rectangle");
  const [w, h] = [shape.width * size.width, shape.height * size.height];
  const angle = (shape.angle * Math.PI) / 180;
  return {
    x: shape.left * size.width + (w / 2) * Math.cos(angle) - (h / 2) * Math.sin(angle),
    y: shape.top * size.height + (w / 2) * Math.sin(angle) + (h / 2) * Math.cos(angle),
  };
}

describe("turning shapes", () => {
  it("turns a rectangle about its centre, in the image's pixels", () => {
    const turned = rotateShape(rect, 30, size);
    expect(turned.angle).toBe(30);
    expect(centre(turned).x).toBeCloseTo(centre(rect).x, 6);
    expect(centre(turned).y).toBeCloseTo(centre(rect).y, 6);
    expect(rotateShape(turned, -90, size).angle).toBe(270);
    const back = rotateShape(turned, 0, size);
    expect(back).toMatchObject({ angle: 0 });
    if (back.shape !== "rect") throw new Error("not a rectangle");
    expect(back.left).toBeCloseTo(0.1, 9);
    expect(back.top).toBeCloseTo(0.2, 9);
  });

  it("turns a polygon's points, so its stored angle stays 0 as Anki's reviewer needs", () => {
    const turned = rotateShape(triangle, 90, size);
    if (turned.shape !== "polygon") throw new Error("not a polygon");
    expect(turned.points).not.toEqual(triangle.points);
    const stored = storedShape(turned);
    expect(stored.angle).toBe(0);
    expect(stored.left).toBeCloseTo(Math.min(...turned.points.map((point) => point.x)), 9);
    const text = serializeOcclusions([stored]);
    expect(text).toMatch(/^\{\{c1::image-occlusion:polygon:left=[.\d]+:top=[.\d]+:points=[.\d, ]+\}\}<br>$/);
    const back = rotateShape(turned, 0, size);
    if (back.shape !== "polygon") throw new Error("not a polygon");
    back.points.forEach((point, index) => {
      expect(point.x).toBeCloseTo(triangle.points[index]?.x ?? Number.NaN, 9);
      expect(point.y).toBeCloseTo(triangle.points[index]?.y ?? Number.NaN, 9);
    });
  });

  it("turns a label about its anchor and writes Anki's angle", () => {
    const turned = rotateShape(label, 45, size);
    expect(turned).toMatchObject({ left: 0.5, top: 0.5, angle: 45 });
    expect(serializeOcclusions([turned])).toBe(
      "{{c0::image-occlusion:text:left=.5:top=.5:angle=1250:text=Aorta:scale=1.}}<br>",
    );
  });
});

describe("the turning handle", () => {
  it("stands above the shape as turned, and pointing it somewhere gives that angle", () => {
    for (const shape of [rect, triangle, label]) {
      for (const degrees of [0, 20, 135, 300]) {
        const turned = rotateShape(shape, degrees, size);
        const handle = handlePoint(turned, size, 24);
        expect(angleTowards(turned, size, handle.x, handle.y)).toBe(degrees);
      }
    }
    const upright = handlePoint(rect, size, 24);
    expect(upright.x).toBeCloseTo((0.1 + 0.2) * 400, 9);
    expect(upright.y).toBeCloseTo(0.2 * 300 - 24, 9);
  });
});

describe("moving and resizing", () => {
  it("keeps a polygon's points on the image and its corner at their top left", () => {
    const moved = moveShape(triangle, 0.9, -0.9);
    if (moved.shape !== "polygon") throw new Error("not a polygon");
    expect(Math.max(...moved.points.map((point) => point.x))).toBeCloseTo(1, 9);
    expect(Math.min(...moved.points.map((point) => point.y))).toBeCloseTo(0, 9);
    expect(moved.left).toBeCloseTo(0.6, 9);
    expect(moved.top).toBeCloseTo(0, 9);
  });

  it("grows a polygon from its top left and a label by its scale", () => {
    const grown = resizeShape(triangle, 0.4, 0);
    if (grown.shape !== "polygon") throw new Error("not a polygon");
    expect(grown.points.map((point) => point.x)).toEqual([0.2, expect.closeTo(1, 9), expect.closeTo(0.6, 9)]);
    expect(resizeShape(label, 0.01, 0)).toMatchObject({ scale: 1.1 });
    expect(resizeShape(label, 0, 1)).toMatchObject({ scale: 0.2 });
  });
});

describe("shapes read from the field", () => {
  it("puts a polygon's points where Anki draws them and drops the angle Anki ignores", () => {
    const [shape] = editableShapes(
      parseOcclusions("{{c1::image-occlusion:polygon:left=.3:top=.4:angle=2500:points=.1,.1 .2,.1 .2,.3}}"),
    );
    if (shape?.shape !== "polygon") throw new Error("not a polygon");
    expect(shape.angle).toBe(0);
    expect(shape.points[0]?.x).toBeCloseTo(0.3, 9);
    expect(shape.points[0]?.y).toBeCloseTo(0.4, 9);
    expect(storedShape(shape)).toMatchObject({ left: expect.closeTo(0.3, 9), top: expect.closeTo(0.4, 9) });
  });
});
