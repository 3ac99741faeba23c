/**
 * An image occlusion note's editor, as Anki's mask editor: choose an image
 * (stored in the deck's media), draw rectangles, ellipses and polygons over it
 * and place text labels, with the pointer or the keyboard; select shapes
 * (click, Shift+click to add), move, resize and turn them, group masks so they
 * make one card, delete, undo, and choose "hide all, guess one" or "hide one,
 * guess one". The shapes are saved as Anki's occlusion text (core's
 * serializeOcclusions), so a note goes to Anki and back unchanged.
 */
import { type OcclusionPoint, type OcclusionShape, parseOcclusions, serializeOcclusions } from "@engram/core";
import { type KeyboardEvent, type PointerEvent, useEffect, useId, useRef, useState } from "react";
import { useMediaUrl } from "../ui/card-view/card-view.js";
import { labelDefaults } from "../ui/card-view/occlusion-label.js";
import { DrawingPreview } from "./occlusion-tools/drawing-preview.js";
import { EditorMask } from "./occlusion-tools/editor-mask.js";
import {
  angleTowards,
  type Box,
  clamp,
  editableShapes,
  minimumSize,
  moveShape,
  nextOrdinal,
  polygonFrom,
  resizeShape,
  rotateShape,
  type Size,
  storedShape,
  withBox,
  withScale,
} from "./occlusion-tools/geometry.js";
import { ImageChooser, imageName } from "./occlusion-tools/image-chooser.js";
import { PolygonDraft } from "./occlusion-tools/polygon-draft.js";
import { RotateHandle } from "./occlusion-tools/rotate-handle.js";
import { ModeChoice, ShapeList, shapeName } from "./occlusion-tools/shape-list.js";
import { ShapePanel } from "./occlusion-tools/shape-panel.js";
import { OcclusionHelp, OcclusionToolbar, type Tool } from "./occlusion-tools/toolbar.js";
import { arrowMoves, bigStep, step, usePolygonTool } from "./occlusion-tools/use-polygon-tool.js";
import { useShapeDrag } from "./occlusion-tools/use-shape-drag.js";
import { useShapeHistory } from "./occlusion-tools/use-shape-history.js";
import { RichField } from "./rich-field.js";
import "./occlusion-editor.css";

/** The note's fields by their stored names (image, occlusions, header, back_extra, comments). */
export type OcclusionFields = Record<string, string>;

type Point = OcclusionPoint;

/** A label's text as the field can hold it: `{{` or `}}` would open or close an occlusion early. */
const labelText = (text: string) => text.replace(/\{\{+/g, "{").replace(/\}\}+/g, "}");

const isLabel = (shape: OcclusionShape | undefined): shape is OcclusionShape & { shape: "text" } =>
  shape?.shape === "text";

/** The field's text: polygons with their turn in their points, labels without text left out. */
const occlusionText = (shapes: readonly OcclusionShape[]) =>
  serializeOcclusions(
    shapes.filter((shape) => !isLabel(shape) || labelText(shape.text).trim() !== "").map(storedShape),
  );

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
  const surface = useRef<HTMLDivElement>(null);
  const labelInput = useRef<HTMLTextAreaElement>(null);
  const [shapes, setShapes] = useState<OcclusionShape[]>(() =>
    editableShapes(parseOcclusions(fields.occlusions ?? "")),
  );
  const [hideAll, setHideAll] = useState(() => {
    const parsed = parseOcclusions(fields.occlusions ?? "");
    return parsed.length === 0 || parsed.some((shape) => shape.occludeInactive);
  });
  const [selected, setSelected] = useState<number[]>([]);
  const [tool, setTool] = useState<Tool>("rect");
  const [drawing, setDrawing] = useState<{ start: Point; end: Point } | null>(null);
  const [size, setSize] = useState<Size | null>(null);
  // Bumped when shapes change other than through the settings panel, so its number fields show the new values.
  const [revision, setRevision] = useState(0);
  const [labelFocus, setLabelFocus] = useState(0);
  const history = useShapeHistory();
  const name = imageName(fields.image ?? "");
  const url = useMediaUrl(deckId, name);

  useEffect(() => {
    if (labelFocus === 0) return;
    labelInput.current?.focus();
    labelInput.current?.select();
  }, [labelFocus]);

  const commit = (next: OcclusionShape[], all: boolean) => {
    const marked = next.map((shape) => ({ ...shape, occludeInactive: all }));
    setShapes(marked);
    onChange({ ...fields, occlusions: occlusionText(marked) });
  };

  /** A change the user made: undoable; `merge` joins it to the last change with the same key. */
  const save = (next: OcclusionShape[], options: { all?: boolean; merge?: string } = {}) => {
    history.record(shapes, options.merge);
    if (!options.merge?.startsWith("panel:")) setRevision((value) => value + 1);
    commit(next, options.all ?? hideAll);
  };

  const add = (shape: OcclusionShape) => {
    save([...shapes, shape]);
    setSelected([shapes.length]);
  };
  const base = (ordinal = nextOrdinal(shapes)) => ({ ordinal, occludeInactive: hideAll, angle: 0 });

  const held = useShapeDrag({
    record: (before) => history.record(before),
    apply: (next) => commit(next, hideAll),
    onEnd: () => setRevision((value) => value + 1),
  });

  const polygon = usePolygonTool(surface, (points) =>
    add(polygonFrom({ ...base(), shape: "polygon", left: 0, top: 0, points: [] }, points)),
  );

  const restore = (previous: OcclusionShape[] | null) => {
    if (!previous) return;
    const all = previous.length > 0 ? previous.some((shape) => shape.occludeInactive) : hideAll;
    setHideAll(all);
    setSelected([]);
    polygon.cancel();
    setRevision((value) => value + 1);
    commit(previous, all);
  };
  const undo = () => restore(history.undo(shapes));
  const redo = () => restore(history.redo(shapes));

  /** The pointer in 0..1 of the image; kept on it unless `anywhere` (a turning handle may be dragged off it). */
  const pointAt = (event: PointerEvent, anywhere = false): Point => {
    const rect = surface.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return { x: 0, y: 0 };
    const point = { x: (event.clientX - rect.left) / rect.width, y: (event.clientY - rect.top) / rect.height };
    return anywhere ? point : { x: clamp(point.x), y: clamp(point.y) };
  };

  const addBox = (kind: "rect" | "ellipse", box: Box = { left: 0.1, top: 0.1, width: 0.2, height: 0.1 }) => {
    add(
      kind === "rect"
        ? withBox({ ...base(), shape: "rect", ...box }, box)
        : withBox({ ...base(), shape: "ellipse", left: 0, top: 0, rx: 0, ry: 0 }, box),
    );
  };

  /** A label (Anki's text shape, group 0: shown on every card), its text ready to type. */
  const addLabel = (at: Point = { x: 0.1, y: 0.1 }) => {
    const fontSize = size ? labelDefaults.fontSize / size.height : 0.1;
    add({ ...base(0), shape: "text", left: at.x, top: at.y, text: "Label", scale: 1, fontSize });
    setTool("select");
    setLabelFocus((value) => value + 1);
  };

  const chooseTool = (next: Tool) => {
    setTool(next);
    polygon.cancel();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    surface.current?.focus({ preventScroll: true });
    const point = pointAt(event);
    switch (tool) {
      case "select":
        setSelected([]);
        return;
      case "polygon":
        polygon.addPoint(point);
        return;
      case "text":
        addLabel(point);
        return;
      default:
        event.currentTarget.setPointerCapture(event.pointerId);
        setDrawing({ start: point, end: point });
    }
  };
  const hold = (event: PointerEvent<SVGElement>) => {
    event.stopPropagation();
    event.preventDefault();
    surface.current?.focus({ preventScroll: true });
    surface.current?.setPointerCapture(event.pointerId);
  };
  /** In the Select tool a shape is selected where it is pressed, and dragging moves the selection. */
  const grab = (index: number, event: PointerEvent<SVGElement>) => {
    if (tool !== "select" || event.button !== 0) return;
    hold(event);
    if (event.shiftKey) return select(index, true);
    const indexes = selected.includes(index) ? selected : [index];
    setSelected(indexes);
    const start = pointAt(event);
    held.take(shapes, (original, to) =>
      original.map((shape, i) => (indexes.includes(i) ? moveShape(shape, to.x - start.x, to.y - start.y) : shape)),
    );
  };
  /** The held handle points at the pointer; with Shift the angle goes in steps of 15°. */
  const takeHandle = (index: number, event: PointerEvent<SVGElement>) => {
    if (event.button !== 0 || !size) return;
    hold(event);
    held.take(
      shapes,
      (original, to, move) =>
        original.map((shape, i) => {
          if (i !== index) return shape;
          const angle = angleTowards(shape, size, to.x * size.width, to.y * size.height);
          return rotateShape(shape, move.shiftKey ? Math.round(angle / 15) * 15 : angle, size);
        }),
      { anywhere: true },
    );
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drawing) setDrawing({ ...drawing, end: pointAt(event) });
    else if (held.holding) held.follow(event, pointAt(event, held.anywhere));
    else polygon.follow(pointAt(event));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    held.release();
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
    addBox(tool === "ellipse" ? "ellipse" : "rect", box);
  };

  const select = (index: number, extend: boolean) => {
    setSelected((current) =>
      extend ? (current.includes(index) ? current.filter((i) => i !== index) : [...current, index]) : [index],
    );
  };

  // Labels are shown on every card, so they never join a group.
  const selectedMasks = selected.filter((index) => !isLabel(shapes[index]));
  const group = () => {
    if (selectedMasks.length < 2) return;
    const ordinal = Math.min(...selectedMasks.map((index) => shapes[index]?.ordinal ?? Number.POSITIVE_INFINITY));
    save(shapes.map((shape, index) => (selectedMasks.includes(index) ? { ...shape, ordinal } : shape)));
  };
  const ungroup = () => {
    let next = nextOrdinal(shapes);
    const keep = new Set<number>();
    save(
      shapes.map((shape, index) => {
        if (!selectedMasks.includes(index)) return shape;
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

  const changeSelected = (change: (shape: OcclusionShape) => OcclusionShape, merge?: string) =>
    save(
      shapes.map((shape, index) => (selected.includes(index) ? change(shape) : shape)),
      merge ? { merge } : {},
    );

  /** Arrow keys move the selected shapes; with Shift a bigger step; with Alt they resize instead. */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const mod = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    if (mod && (key === "z" || key === "y")) {
      event.preventDefault();
      if (key === "y" || event.shiftKey) redo();
      else undo();
      return;
    }
    if (tool === "polygon" && polygon.onKey(event)) return;
    if (event.key === "Delete" || event.key === "Backspace") {
      if (selected.length === 0) return;
      event.preventDefault();
      remove();
      return;
    }
    const move = arrowMoves[event.key];
    if (!move || selected.length === 0) return;
    event.preventDefault();
    const amount = event.shiftKey ? bigStep : step;
    changeSelected((shape) =>
      event.altKey
        ? resizeShape(shape, move.x * amount, move.y * amount)
        : moveShape(shape, move.x * amount, move.y * amount),
    );
  };

  const [only] = selected.length === 1 ? selected : [];
  const chosen = only === undefined ? undefined : shapes[only];
  const displayScale = size && surface.current?.clientWidth ? size.width / surface.current.clientWidth : 1;
  const help = `${id}-help`;
  return (
    <fieldset className="occlusion-editor">
      <legend>Image and masks</legend>
      <ImageChooser
        id={id}
        deckId={deckId}
        name={name}
        error={errors.image}
        onImage={(image) => {
          setSize(null);
          onChange({ ...fields, image });
        }}
      />

      {name && (
        <>
          <OcclusionToolbar
            name={`${id}-tool`}
            tool={tool}
            onTool={chooseTool}
            canGroup={selectedMasks.length >= 2}
            canDelete={selected.length > 0}
            canUndo={history.canUndo}
            canRedo={history.canRedo}
            onAddRectangle={() => addBox("rect")}
            onAddLabel={() => addLabel()}
            onGroup={group}
            onUngroup={ungroup}
            onDelete={remove}
            onUndo={undo}
            onRedo={redo}
          />

          <div
            ref={surface}
            className={`occlusion-surface tool-${tool}`}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the drawing surface takes the keys that draw, move and turn shapes.
            tabIndex={0}
            role="application"
            aria-label="Image with masks"
            aria-describedby={help}
            // While a polygon is being drawn, Escape cancels it rather than closing the dialog.
            data-keeps-escape={polygon.draft ? "" : undefined}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onDoubleClick={() => {
              if (tool === "polygon") polygon.finish();
            }}
            onKeyDown={onKeyDown}
          >
            {url ? (
              <img
                src={url}
                alt=""
                draggable={false}
                onLoad={(event) => {
                  const image = event.currentTarget;
                  if (image.naturalWidth > 0 && image.naturalHeight > 0) {
                    setSize({ width: image.naturalWidth, height: image.naturalHeight });
                  }
                }}
              />
            ) : (
              <div className="occlusion-loading">Loading image…</div>
            )}
            {size && (
              <svg viewBox={`0 0 ${size.width} ${size.height}`} preserveAspectRatio="none" aria-hidden="true">
                {shapes.map((shape, index) => (
                  <EditorMask
                    // biome-ignore lint/suspicious/noArrayIndexKey: a shape is its place in the list; deleting rebuilds the list.
                    key={index}
                    shape={shape}
                    size={size}
                    selected={selected.includes(index)}
                    onPointerDown={(event) => grab(index, event)}
                  />
                ))}
                {chosen && only !== undefined && tool === "select" && (
                  <RotateHandle
                    shape={chosen}
                    size={size}
                    scale={displayScale}
                    onPointerDown={(event) => takeHandle(only, event)}
                  />
                )}
                {drawing && (
                  <DrawingPreview start={drawing.start} end={drawing.end} ellipse={tool === "ellipse"} size={size} />
                )}
                {polygon.draft && (
                  <PolygonDraft
                    points={polygon.draft.points}
                    cursor={polygon.draft.cursor}
                    size={size}
                    scale={displayScale}
                  />
                )}
              </svg>
            )}
          </div>
          <OcclusionHelp id={help} />

          {chosen && only !== undefined && (
            <ShapePanel
              key={`${only}-${revision}`}
              shape={chosen}
              name={`${shapeName(chosen, only)} settings`}
              textRef={labelInput}
              onRotate={(degrees) =>
                size && changeSelected((shape) => rotateShape(shape, degrees, size), `panel:turn:${only}`)
              }
              onText={(text) =>
                changeSelected(
                  (shape) => (shape.shape === "text" ? { ...shape, text: labelText(text) } : shape),
                  `panel:text:${only}`,
                )
              }
              onScale={(scale) =>
                changeSelected(
                  (shape) => (shape.shape === "text" ? withScale(shape, scale) : shape),
                  `panel:scale:${only}`,
                )
              }
            />
          )}

          <ShapeList shapes={shapes} selected={selected} onSelect={select} />
          {errors.occlusions && (
            <p className="field-error" role="alert">
              {errors.occlusions}
            </p>
          )}
          <ModeChoice
            name={`${id}-mode`}
            hideAll={hideAll}
            onChange={(all) => {
              setHideAll(all);
              save(shapes, { all });
            }}
          />
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
