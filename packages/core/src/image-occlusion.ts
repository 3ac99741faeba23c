/**
 * Image occlusion notes as Anki 23.10 stores them (rslib/src/image_occlusion,
 * rslib/src/cloze.rs): the Occlusion field holds one cloze per shape,
 * `{{c1::image-occlusion:rect:left=.2:top=.3:width=.1:height=.1:oi=1}}`, with
 * positions and sizes as fractions of the image's width (x, width, rx) or
 * height (y, height, ry). Shapes sharing a number are one group and one card;
 * number 0 marks labels (text) shown on every card. `oi=1` ("occlude
 * inactive") hides the other groups too ("hide all, guess one"); without it
 * only the asked group is hidden ("hide one, guess one").
 *
 * An occlusion is `{{c<digits>::image-occlusion:<body>}}` where the body holds
 * no `}}` (Anki's tokeniser closes there too); the database's
 * private.occlusion_ordinals reads the same pattern. Anki's multi-number form
 * `{{c1,2::…}}`, which its editor never writes, is not an occlusion here.
 */
import { maxClozeOrdinal } from "./cloze";
import { limits } from "./limits";

export type ImageOcclusionFields = {
  /** `<img src="name.png">` as Anki stores it. */
  image: string;
  /** Anki's Occlusion field, kept verbatim so it goes back to Anki unchanged. */
  occlusions: string;
  header: string;
  back_extra: string;
  comments: string;
};

export const occlusionShapeKinds = ["rect", "ellipse", "polygon", "text"] as const;
export type OcclusionShapeKind = (typeof occlusionShapeKinds)[number];

export type OcclusionPoint = { x: number; y: number };

type ShapeBase = {
  /** The group (card) number; 0 for labels shown on every card. */
  ordinal: number;
  /** Anki's `oi=1`: the other groups stay hidden while this one is asked. */
  occludeInactive: boolean;
  /** Degrees clockwise about (left, top), as Anki turns it. */
  angle: number;
  /** A colour of Anki's own when not its default mask colour. */
  fill?: string;
};

export type OcclusionShape = ShapeBase &
  (
    | { shape: "rect"; left: number; top: number; width: number; height: number }
    | { shape: "ellipse"; left: number; top: number; rx: number; ry: number }
    | { shape: "polygon"; left: number; top: number; points: OcclusionPoint[] }
    | { shape: "text"; left: number; top: number; text: string; scale: number; fontSize?: number }
  );

/** Anki's mask colours (notetype.css / review.ts). */
export const occlusionColours = {
  active: "#ff8e8e",
  inactive: "#ffeba2",
  border: "#212121",
  highlight: "#ff8e8e",
} as const;

// `[0-9]`, not `\d`, and `}` excluded explicitly, so PostgreSQL's regex
// (private.occlusion_ordinals) reads exactly the same occlusions.
const occlusionPattern = /\{\{c([0-9]+)::image-occlusion:((?:[^}]|\}(?!\}))*)\}\}/g;

/** Anki stores angles in steps of 1/10000 of a turn (shapes/lib.ts). */
const angleSteps = 10000;

function ordinalOf(digits: string): number | null {
  const trimmed = digits.replace(/^0+/, "");
  if (trimmed.length > 10) return null;
  const value = trimmed === "" ? 0 : Number(trimmed);
  return value > maxClozeOrdinal ? null : value;
}

/** `name=value` pairs after the shape name; `\:` and `\\` are escapes (imageocclusion.rs parse_image_cloze). */
function readProperties(body: string): { shape: string; properties: Map<string, string> } | null {
  const colon = body.indexOf(":");
  if (colon <= 0) return null;
  const shape = body.slice(0, colon);
  const properties = new Map<string, string>();
  let at = colon;
  while (body[at] === ":") {
    const equals = body.indexOf("=", at + 1);
    if (equals <= at + 1) break;
    const name = body.slice(at + 1, equals);
    if (name.includes(":")) break;
    let value = "";
    at = equals + 1;
    while (at < body.length && body[at] !== ":") {
      const char = body[at] as string;
      if (char === "\\" && (body[at + 1] === "\\" || body[at + 1] === ":")) {
        value += body[at + 1];
        at += 2;
      } else {
        value += char;
        at += 1;
      }
    }
    properties.set(name, value);
  }
  return { shape, properties };
}

function numberOr(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : fallback;
}

function parsePoints(value: string | undefined): OcclusionPoint[] {
  return (value ?? "")
    .split(" ")
    .map((pair) => pair.split(","))
    .filter((pair) => pair.length === 2)
    .map(([x, y]) => ({ x: numberOr(x, Number.NaN), y: numberOr(y, Number.NaN) }))
    .filter((point) => Number.isFinite(point.x) && Number.isFinite(point.y));
}

function toShape(ordinal: number, body: string): OcclusionShape | null {
  const read = readProperties(body);
  if (!read || !(occlusionShapeKinds as readonly string[]).includes(read.shape)) return null;
  const p = read.properties;
  const fill = p.get("fill");
  const base: ShapeBase = {
    ordinal,
    occludeInactive: p.get("oi") === "1",
    angle: ((numberOr(p.get("angle"), 0) % angleSteps) / angleSteps) * 360,
    ...(fill ? { fill } : {}),
  };
  const left = numberOr(p.get("left"), 0);
  const top = numberOr(p.get("top"), 0);
  switch (read.shape as OcclusionShapeKind) {
    case "rect":
      return {
        ...base,
        shape: "rect",
        left,
        top,
        width: numberOr(p.get("width"), 0),
        height: numberOr(p.get("height"), 0),
      };
    case "ellipse":
      return { ...base, shape: "ellipse", left, top, rx: numberOr(p.get("rx"), 0), ry: numberOr(p.get("ry"), 0) };
    case "polygon":
      return { ...base, shape: "polygon", left, top, points: parsePoints(p.get("points")) };
    case "text": {
      const fontSize = p.get("fs");
      return {
        ...base,
        shape: "text",
        left,
        top,
        text: p.get("text") ?? "",
        scale: numberOr(p.get("scale"), 1),
        ...(fontSize ? { fontSize: numberOr(fontSize, 0) } : {}),
      };
    }
  }
}

/** Every occlusion in the field, in order; unknown shapes are left out, as Anki's reviewer leaves them. */
export function parseOcclusions(text: string): OcclusionShape[] {
  const shapes: OcclusionShape[] = [];
  for (const match of text.matchAll(occlusionPattern)) {
    const ordinal = ordinalOf(match[1] as string);
    if (ordinal === null) continue;
    const shape = toShape(ordinal, match[2] as string);
    if (shape) shapes.push(shape);
  }
  return shapes;
}

/** The card numbers: the distinct group numbers of at least 1, ascending (labels, number 0, make none). */
export function occlusionOrdinals(text: string): number[] {
  const found = new Set<number>();
  for (const match of text.matchAll(occlusionPattern)) {
    const ordinal = ordinalOf(match[1] as string);
    if (ordinal !== null && ordinal >= 1) found.add(ordinal);
  }
  return [...found].sort((a, b) => a - b);
}

/** Anki's floatToDisplay (shapes/lib.ts), exactly: 4 decimals, zeros trimmed at both ends, zero as ".0000". */
export function occlusionNumber(value: number): string {
  if (!Number.isFinite(value) || value === 0) return ".0000";
  return value.toFixed(4).replace(/^0+|0+$/g, "");
}

function escapeValue(value: string): string {
  return value.replaceAll("\\", "\\\\").replaceAll(":", "\\:");
}

/** One shape as Anki's editor writes it (shapes/to-cloze.ts), `<br>` after each. */
export function serializeOcclusion(shape: OcclusionShape): string {
  const pairs: [string, string][] = [
    ["left", occlusionNumber(shape.left)],
    ["top", occlusionNumber(shape.top)],
  ];
  const angle = Math.round(((shape.angle % 360) / 360) * angleSteps);
  if (angle) pairs.push(["angle", String(angle)]);
  switch (shape.shape) {
    case "rect":
      pairs.push(["width", occlusionNumber(shape.width)], ["height", occlusionNumber(shape.height)]);
      break;
    case "ellipse":
      pairs.push(["rx", occlusionNumber(shape.rx)], ["ry", occlusionNumber(shape.ry)]);
      break;
    case "polygon":
      pairs.push(["points", shape.points.map((p) => `${occlusionNumber(p.x)},${occlusionNumber(p.y)}`).join(" ")]);
      break;
    case "text":
      pairs.push(["text", shape.text], ["scale", occlusionNumber(shape.scale)]);
      if (shape.fontSize) pairs.push(["fs", occlusionNumber(shape.fontSize)]);
      break;
  }
  if (shape.fill) pairs.push(["fill", shape.fill]);
  if (shape.occludeInactive) pairs.push(["oi", "1"]);
  const body = pairs.map(([name, value]) => `:${name}=${escapeValue(value)}`).join("");
  return `{{c${shape.ordinal}::image-occlusion:${shape.shape}${body}}}<br>`;
}

export function serializeOcclusions(shapes: readonly OcclusionShape[]): string {
  return shapes.map(serializeOcclusion).join("");
}

export type ImageOcclusionIssue =
  | { field: "image"; problem: "missing" }
  | { field: "occlusions"; problem: "missing" | "too-many-groups" | "text-outside-occlusions" };

/**
 * What keeps a note from being saved: an image (an `<img>`) and 1 to
 * limits.clozeNumbersPerNote groups, as the notes constraints require, and,
 * for notes made here, nothing in the occlusion field but occlusions (and the
 * `<br>`s and spaces Anki puts between them).
 */
export function validateImageOcclusion(fields: ImageOcclusionFields): ImageOcclusionIssue[] {
  const issues: ImageOcclusionIssue[] = [];
  if (!/<img\b/i.test(fields.image)) issues.push({ field: "image", problem: "missing" });
  const ordinals = occlusionOrdinals(fields.occlusions);
  if (ordinals.length === 0) issues.push({ field: "occlusions", problem: "missing" });
  if (ordinals.length > limits.clozeNumbersPerNote) issues.push({ field: "occlusions", problem: "too-many-groups" });
  const rest = fields.occlusions.replace(occlusionPattern, "").replace(/<br\s*\/?>|&nbsp;|\s/gi, "");
  if (rest !== "") issues.push({ field: "occlusions", problem: "text-outside-occlusions" });
  return issues;
}

/** How a shape is drawn on one side of one card (rslib/src/cloze.rs render_image_occlusion, review.ts). */
export type MaskState = "active" | "inactive" | "revealed" | "label";

export type OcclusionMask = OcclusionShape & { state: MaskState };

/**
 * The masks of card `ordinal`: its own group "active" on the front and
 * "revealed" (outlined) on the back; other groups "inactive" where `oi=1`, else
 * not drawn; labels (number 0) on both sides.
 */
export function occlusionMasks(
  shapes: readonly OcclusionShape[],
  ordinal: number,
  side: "front" | "back",
): OcclusionMask[] {
  const masks: OcclusionMask[] = [];
  for (const shape of shapes) {
    if (shape.ordinal === 0) masks.push({ ...shape, state: "label" });
    else if (shape.ordinal === ordinal) masks.push({ ...shape, state: side === "front" ? "active" : "revealed" });
    else if (shape.occludeInactive) masks.push({ ...shape, state: "inactive" });
  }
  return masks;
}

/** A mask colour: a hex colour or a colour name, nothing that could load from elsewhere. */
export function safeMaskColour(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return /^(#[0-9a-f]{3,8}|[a-z]{3,20})$/i.test(value.trim()) ? value.trim() : undefined;
}

/** The tag renderCard writes around the image; the study screen draws the masks from `data-masks`. */
export const occlusionTag = "engram-occlusion";
