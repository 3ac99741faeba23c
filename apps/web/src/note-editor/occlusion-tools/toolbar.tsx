/** The occlusion editor's tools and actions, above the image. */

export const tools = ["select", "rect", "ellipse", "polygon", "text"] as const;
export type Tool = (typeof tools)[number];

const toolNames: Record<Tool, string> = {
  select: "Select",
  rect: "Draw rectangles",
  ellipse: "Draw ellipses",
  polygon: "Draw polygons",
  text: "Place labels",
};

export function OcclusionToolbar({
  name,
  tool,
  onTool,
  canGroup,
  canDelete,
  canUndo,
  canRedo,
  onAddRectangle,
  onAddLabel,
  onGroup,
  onUngroup,
  onDelete,
  onUndo,
  onRedo,
}: {
  /** The radio group's name, unique on the page. */
  name: string;
  tool: Tool;
  onTool: (tool: Tool) => void;
  canGroup: boolean;
  canDelete: boolean;
  canUndo: boolean;
  canRedo: boolean;
  onAddRectangle: () => void;
  onAddLabel: () => void;
  onGroup: () => void;
  onUngroup: () => void;
  onDelete: () => void;
  onUndo: () => void;
  onRedo: () => void;
}) {
  const button = (label: string, onClick: () => void, enabled = true) => (
    <button type="button" className="button secondary" disabled={!enabled} onClick={onClick}>
      {label}
    </button>
  );
  return (
    <div className="occlusion-toolbar" role="toolbar" aria-label="Masks">
      <fieldset className="occlusion-tools">
        <legend className="visually-hidden">Drawing tool</legend>
        {tools.map((value) => (
          <label key={value}>
            <input type="radio" name={name} checked={tool === value} onChange={() => onTool(value)} />
            {toolNames[value]}
          </label>
        ))}
      </fieldset>
      {button("Add rectangle", onAddRectangle)}
      {button("Add label", onAddLabel)}
      {button("Group", onGroup, canGroup)}
      {button("Ungroup", onUngroup, canGroup)}
      {button("Delete", onDelete, canDelete)}
      {button("Undo", onUndo, canUndo)}
      {button("Redo", onRedo, canRedo)}
    </div>
  );
}

/** How to draw and change shapes with the pointer and the keyboard; the drawing surface points at it. */
export function OcclusionHelp({ id }: { id: string }) {
  return (
    <p id={id} className="field-hint">
      Drag over the image to draw a rectangle or ellipse. To draw a polygon, click its corners, then click the first
      one, double-click or press Enter; Escape cancels it. From the keyboard, with Draw polygons chosen, Space shows a
      cursor, arrow keys move it and Space adds a corner. Place labels puts a label where you click. Choose Select, then
      click a shape (Shift+click for more) to select it and drag to move it; arrow keys move the selected shapes,
      Alt+arrow keys resize them, Delete removes them, Ctrl+Z undoes. Drag the handle above a selected shape (with
      Shift, in steps of 15°) or type its rotation to turn it.
    </p>
  );
}
