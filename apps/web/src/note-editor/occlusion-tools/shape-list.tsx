/**
 * Below the image: every shape as a button that selects it (the way to reach
 * a shape without a pointer), how many cards the masks make, and the mode.
 */
import type { OcclusionShape } from "@engram/core";

const shapeNames = { rect: "Rectangle", ellipse: "Ellipse", polygon: "Polygon", text: "Label" } as const;

/** What a shape is called in the list and its settings, e.g. "Rectangle 3". */
export const shapeName = (shape: OcclusionShape, index: number) => `${shapeNames[shape.shape]} ${index + 1}`;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function ShapeList({
  shapes,
  selected,
  onSelect,
}: {
  shapes: readonly OcclusionShape[];
  selected: readonly number[];
  onSelect: (index: number, extend: boolean) => void;
}) {
  const masks = shapes.filter((shape) => shape.shape !== "text").length;
  const labels = shapes.length - masks;
  const groups = new Set(shapes.filter((shape) => shape.ordinal > 0).map((shape) => shape.ordinal)).size;
  return (
    <>
      <ul className="occlusion-masks-list" aria-label="Masks">
        {shapes.map((shape, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a shape is its place in the list; deleting rebuilds the list.
          <li key={index}>
            <button
              type="button"
              className="occlusion-mask-button"
              aria-pressed={selected.includes(index)}
              onClick={(event) => onSelect(index, event.shiftKey || event.ctrlKey || event.metaKey)}
            >
              {shapeName(shape, index)}, {shape.shape === "text" ? "on every card" : `card ${shape.ordinal}`}
            </button>
          </li>
        ))}
      </ul>
      <p className="field-hint" role="status">
        {masks === 0
          ? "No masks yet."
          : `${plural(masks, "mask", "masks")} in ${plural(groups, "group", "groups")}: ${plural(groups, "card", "cards")}.`}
        {labels > 0 ? ` ${plural(labels, "label", "labels")} on every card.` : ""}
      </p>
    </>
  );
}

export function ModeChoice({
  name,
  hideAll,
  onChange,
}: {
  /** The radio group's name, unique on the page. */
  name: string;
  hideAll: boolean;
  onChange: (hideAll: boolean) => void;
}) {
  return (
    <fieldset className="occlusion-mode">
      <legend>On each card</legend>
      <label>
        <input type="radio" name={name} checked={hideAll} onChange={() => onChange(true)} />
        Hide all, guess one
      </label>
      <label>
        <input type="radio" name={name} checked={!hideAll} onChange={() => onChange(false)} />
        Hide one, guess one
      </label>
    </fieldset>
  );
}
