/**
 * An image occlusion note's editor, as Anki's mask editor: choose an image
 * (stored in the deck's media), draw rectangles and ellipses over it with the
 * pointer, or add a rectangle and move or resize it with the arrow keys;
 * select masks (click, Shift+click to add) and group them so they make one
 * card, delete them, and choose "hide all, guess one" or "hide one, guess
 * one". The masks are saved as Anki's occlusion text (core's
 * serializeOcclusions), so a note goes to Anki and back unchanged.
 */
import { type OcclusionShape, occlusionColours, parseOcclusions, serializeOcclusions } from "@engram/core";
import { type KeyboardEvent, type PointerEvent, useId, useMemo, useRef, useState } from "react";
import { mediaUploadMessage } from "../lib/error-messages.js";
import { rasterizeSvg } from "../lib/rasterize-svg.js";
import { useEngram } from "../session/engram-context.js";
import { useMediaUrl } from "../ui/card-view/card-view.js";
import { RichField } from "./rich-field.js";
import "./occlusion-editor.css";

/** The note's fields by their stored names (image, occlusions, header, back_extra, comments). */
export type OcclusionFields = Record<string, string>;

type Drawable = OcclusionShape & { shape: "rect" | "ellipse" };
type Tool = "select" | "rect" | "ellipse";
type Point = { x: number; y: number };

const minimumSize = 0.01;
const step = 0.01;
const bigStep = 0.05;
const clamp = (value: number) => Math.min(1, Math.max(0, value));

/** The media name an `<img src="…">` field shows, or "". */
export function imageName(html: string): string {
  const src = /<img\b[^>]*?\bsrc\s*=\s*(["'])(.*?)\1/i.exec(html)?.[2] ?? "";
  return src.replaceAll("&amp;", "&").replaceAll("&quot;", '"');
}

function imageHtml(name: string): string {
  return `<img src="${name.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}">`;
}

/** The shape as a box in 0..1 of the image: what the editor moves and resizes. */
function boxOf(shape: Drawable) {
  return shape.shape === "rect"
    ? { left: shape.left, top: shape.top, width: shape.width, height: shape.height }
    : { left: shape.left, top: shape.top, width: shape.rx * 2, height: shape.ry * 2 };
}

function withBox(shape: Drawable, box: { left: number; top: number; width: number; height: number }): Drawable {
  const width = Math.max(minimumSize, Math.min(box.width, 1));
  const height = Math.max(minimumSize, Math.min(box.height, 1));
  const left = Math.min(clamp(box.left), 1 - width);
  const top = Math.min(clamp(box.top), 1 - height);
  return shape.shape === "rect"
    ? { ...shape, left, top, width, height }
    : { ...shape, left, top, rx: width / 2, ry: height / 2 };
}

function drawable(shape: OcclusionShape): shape is Drawable {
  return shape.shape === "rect" || shape.shape === "ellipse";
}

const nextOrdinal = (shapes: readonly OcclusionShape[]) => Math.max(0, ...shapes.map((shape) => shape.ordinal)) + 1;

const shapeNames = { rect: "Rectangle", ellipse: "Ellipse", polygon: "Polygon", text: "Label" } as const;

export function OcclusionEditor({
  deckId,
  fields,
  errors,
  onChange,
}: {
  deckId: string;
  fields: OcclusionFields;
  errors: Record<string, string | undefined>;
  onChange: (fields: OcclusionFields) => void;
}) {
  const id = useId();
  const engram = useEngram();
  const fileInput = useRef<HTMLInputElement>(null);
  const surface = useRef<HTMLDivElement>(null);
  const [shapes, setShapes] = useState<OcclusionShape[]>(() => parseOcclusions(fields.occlusions ?? ""));
  const [hideAll, setHideAll] = useState(() => {
    const parsed = parseOcclusions(fields.occlusions ?? "");
    return parsed.length === 0 || parsed.some((shape) => shape.occludeInactive);
  });
  const [selected, setSelected] = useState<number[]>([]);
  const [tool, setTool] = useState<Tool>("rect");
  const [drawing, setDrawing] = useState<{ start: Point; end: Point } | null>(null);
  const [upload, setUpload] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const name = imageName(fields.image ?? "");
  const url = useMediaUrl(deckId, name);

  const save = (next: OcclusionShape[], all = hideAll) => {
    const marked = next.map((shape) => ({ ...shape, occludeInactive: all }));
    setShapes(marked);
    onChange({ ...fields, occlusions: serializeOcclusions(marked) });
  };

  const chooseImage = async (file: File | undefined) => {
    if (!file) return;
    setUpload({ busy: true, error: null });
    try {
      const path = await engram.storage.uploadMedia(deckId, file, { rasterizeSvg: (svg) => rasterizeSvg(svg) });
      onChange({ ...fields, image: imageHtml(path.slice(path.indexOf("/") + 1)) });
      setUpload({ busy: false, error: null });
    } catch (error) {
      setUpload({ busy: false, error: `${file.name}: ${mediaUploadMessage(error)}` });
    }
  };

  const pointAt = (event: PointerEvent): Point => {
    const rect = surface.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return { x: 0, y: 0 };
    return { x: clamp((event.clientX - rect.left) / rect.width), y: clamp((event.clientY - rect.top) / rect.height) };
  };

  const startDrawing = (event: PointerEvent<HTMLDivElement>) => {
    if (tool === "select" || event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const start = pointAt(event);
    setDrawing({ start, end: start });
  };
  const keepDrawing = (event: PointerEvent<HTMLDivElement>) => {
    if (drawing) setDrawing({ ...drawing, end: pointAt(event) });
  };
  const finishDrawing = (event: PointerEvent<HTMLDivElement>) => {
    if (!drawing) return;
    const end = pointAt(event);
    setDrawing(null);
    const box = {
      left: Math.min(drawing.start.x, end.x),
      top: Math.min(drawing.start.y, end.y),
      width: Math.abs(end.x - drawing.start.x),
      height: Math.abs(end.y - drawing.start.y),
    };
    if (box.width < minimumSize || box.height < minimumSize) return;
    add(tool === "ellipse" ? "ellipse" : "rect", box);
  };

  const add = (kind: "rect" | "ellipse", box = { left: 0.1, top: 0.1, width: 0.2, height: 0.1 }) => {
    const base = { ordinal: nextOrdinal(shapes), occludeInactive: hideAll, angle: 0 };
    const shape: Drawable =
      kind === "rect"
        ? { ...base, shape: "rect", ...box }
        : { ...base, shape: "ellipse", left: 0, top: 0, rx: 0, ry: 0 };
    save([...shapes, withBox(shape, box)]);
    setSelected([shapes.length]);
  };

  const select = (index: number, extend: boolean) => {
    setSelected((current) =>
      extend ? (current.includes(index) ? current.filter((i) => i !== index) : [...current, index]) : [index],
    );
  };

  const group = () => {
    if (selected.length < 2) return;
    const ordinal = Math.min(...selected.map((index) => shapes[index]?.ordinal ?? Number.POSITIVE_INFINITY));
    save(shapes.map((shape, index) => (selected.includes(index) ? { ...shape, ordinal } : shape)));
  };
  const ungroup = () => {
    let next = nextOrdinal(shapes);
    const keep = new Set<number>();
    save(
      shapes.map((shape, index) => {
        if (!selected.includes(index)) return shape;
        // The first of each group keeps its number; the others get new ones.
        if (!keep.has(shape.ordinal)) {
          keep.add(shape.ordinal);
          return shape;
        }
        next += 1;
        return { ...shape, ordinal: next - 1 };
      }),
    );
  };
  const remove = () => {
    save(shapes.filter((_, index) => !selected.includes(index)));
    setSelected([]);
  };

  /** Arrow keys move the selected masks; with Shift a bigger step; with Alt they resize instead. */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Delete" || event.key === "Backspace") {
      if (selected.length === 0) return;
      event.preventDefault();
      remove();
      return;
    }
    const moves: Record<string, Point> = {
      ArrowLeft: { x: -1, y: 0 },
      ArrowRight: { x: 1, y: 0 },
      ArrowUp: { x: 0, y: -1 },
      ArrowDown: { x: 0, y: 1 },
    };
    const move = moves[event.key];
    if (!move || selected.length === 0) return;
    event.preventDefault();
    const amount = event.shiftKey ? bigStep : step;
    save(
      shapes.map((shape, index) => {
        if (!selected.includes(index) || !drawable(shape)) return shape;
        const box = boxOf(shape);
        return event.altKey
          ? withBox(shape, { ...box, width: box.width + move.x * amount, height: box.height + move.y * amount })
          : withBox(shape, { ...box, left: box.left + move.x * amount, top: box.top + move.y * amount });
      }),
    );
  };

  const preview = useMemo(() => {
    if (!drawing) return null;
    const { start, end } = drawing;
    return {
      x: Math.min(start.x, end.x),
      y: Math.min(start.y, end.y),
      width: Math.abs(end.x - start.x),
      height: Math.abs(end.y - start.y),
    };
  }, [drawing]);

  const groups = new Set(shapes.filter((shape) => shape.ordinal > 0).map((shape) => shape.ordinal)).size;
  const help = `${id}-help`;
  return (
    <fieldset className="occlusion-editor">
      <legend>Image and masks</legend>
      <div className="occlusion-image-row">
        <input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          accept="image/*"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Image to occlude"
          aria-describedby={errors.image ? `${id}-image-error` : undefined}
          onChange={(event) => {
            void chooseImage(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
        <button type="button" className="button secondary" onClick={() => fileInput.current?.click()}>
          {name ? "Change image" : "Choose image"}
        </button>
        {name && <span className="occlusion-image-name">{name}</span>}
        {upload.busy && <span role="status">Uploading…</span>}
      </div>
      {(upload.error || errors.image) && (
        <p id={`${id}-image-error`} className="field-error" role="alert">
          {upload.error ?? errors.image}
        </p>
      )}

      {name && (
        <>
          <div className="occlusion-toolbar" role="toolbar" aria-label="Masks">
            <fieldset className="occlusion-tools">
              <legend className="visually-hidden">Drawing tool</legend>
              {(["select", "rect", "ellipse"] as const).map((value) => (
                <label key={value}>
                  <input type="radio" name={`${id}-tool`} checked={tool === value} onChange={() => setTool(value)} />
                  {value === "select" ? "Select" : value === "rect" ? "Draw rectangles" : "Draw ellipses"}
                </label>
              ))}
            </fieldset>
            <button type="button" className="button secondary" onClick={() => add("rect")}>
              Add rectangle
            </button>
            <button type="button" className="button secondary" disabled={selected.length < 2} onClick={group}>
              Group
            </button>
            <button type="button" className="button secondary" disabled={selected.length < 2} onClick={ungroup}>
              Ungroup
            </button>
            <button type="button" className="button secondary" disabled={selected.length === 0} onClick={remove}>
              Delete
            </button>
          </div>

          <div
            ref={surface}
            className={`occlusion-surface tool-${tool}`}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the drawing surface takes the arrow keys that move the selected masks.
            tabIndex={0}
            role="application"
            aria-label="Image with masks"
            aria-describedby={help}
            onPointerDown={startDrawing}
            onPointerMove={keepDrawing}
            onPointerUp={finishDrawing}
            onKeyDown={onKeyDown}
          >
            {url ? <img src={url} alt="" draggable={false} /> : <div className="occlusion-loading">Loading image…</div>}
            <svg viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">
              {shapes.map((shape, index) =>
                drawable(shape) ? (
                  <MaskOutline
                    // biome-ignore lint/suspicious/noArrayIndexKey: a mask is its place in the list; deleting rebuilds the list.
                    key={index}
                    shape={shape}
                    selected={selected.includes(index)}
                    onPointerDown={(event) => {
                      if (tool !== "select") return;
                      event.stopPropagation();
                      select(index, event.shiftKey);
                    }}
                  />
                ) : null,
              )}
              {preview && (
                <rect
                  className="occlusion-drawing"
                  x={preview.x}
                  y={preview.y}
                  width={preview.width}
                  height={preview.height}
                  vectorEffect="non-scaling-stroke"
                />
              )}
            </svg>
          </div>
          <p id={help} className="field-hint">
            Drag over the image to draw a mask. Choose Select, then click a mask (Shift+click for more) to select it;
            arrow keys move the selected masks, Alt+arrow keys resize them, Delete removes them.
          </p>

          <ul className="occlusion-masks-list" aria-label="Masks">
            {shapes.map((shape, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a mask is its place in the list; deleting rebuilds the list.
              <li key={index}>
                <button
                  type="button"
                  className="occlusion-mask-button"
                  aria-pressed={selected.includes(index)}
                  onClick={(event) => select(index, event.shiftKey || event.ctrlKey || event.metaKey)}
                >
                  {shapeNames[shape.shape]} {index + 1}, card {shape.ordinal}
                </button>
              </li>
            ))}
          </ul>
          <p className="field-hint" role="status">
            {shapes.length === 0
              ? "No masks yet."
              : `${shapes.length} ${shapes.length === 1 ? "mask" : "masks"} in ${groups} ${groups === 1 ? "group" : "groups"}: ${groups} ${groups === 1 ? "card" : "cards"}.`}
          </p>
          {errors.occlusions && (
            <p className="field-error" role="alert">
              {errors.occlusions}
            </p>
          )}

          <fieldset className="occlusion-mode">
            <legend>On each card</legend>
            <label>
              <input
                type="radio"
                name={`${id}-mode`}
                checked={hideAll}
                onChange={() => {
                  setHideAll(true);
                  save(shapes, true);
                }}
              />
              Hide all, guess one
            </label>
            <label>
              <input
                type="radio"
                name={`${id}-mode`}
                checked={!hideAll}
                onChange={() => {
                  setHideAll(false);
                  save(shapes, false);
                }}
              />
              Hide one, guess one
            </label>
          </fieldset>
        </>
      )}

      <RichField
        deckId={deckId}
        name="header"
        label="Header"
        initialHtml={fields.header ?? ""}
        error={errors.header}
        onChange={(header) => onChange({ ...fields, header })}
      />
      <RichField
        deckId={deckId}
        name="back_extra"
        label="Back extra"
        initialHtml={fields.back_extra ?? ""}
        error={errors.back_extra}
        onChange={(back_extra) => onChange({ ...fields, back_extra })}
      />
    </fieldset>
  );
}

function MaskOutline({
  shape,
  selected,
  onPointerDown,
}: {
  shape: Drawable;
  selected: boolean;
  onPointerDown: (event: PointerEvent<SVGElement>) => void;
}) {
  const box = boxOf(shape);
  const common = {
    className: `occlusion-mask${selected ? " selected" : ""}`,
    "data-ordinal": shape.ordinal,
    fill: occlusionColours.inactive,
    fillOpacity: 0.8,
    stroke: selected ? "#1d4ed8" : occlusionColours.border,
    strokeWidth: selected ? 3 : 1,
    vectorEffect: "non-scaling-stroke" as const,
    onPointerDown,
  };
  return shape.shape === "rect" ? (
    <rect {...common} x={box.left} y={box.top} width={box.width} height={box.height} />
  ) : (
    <ellipse
      {...common}
      cx={box.left + box.width / 2}
      cy={box.top + box.height / 2}
      rx={box.width / 2}
      ry={box.height / 2}
    />
  );
}
