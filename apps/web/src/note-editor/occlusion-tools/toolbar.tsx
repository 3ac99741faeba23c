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
