/**
 * A shape held by the pointer (moved by dragging, or turned by its handle):
 * each move recomputes the shapes from how they were when it was taken, and
 * the whole drag is one step to undo, recorded once it has moved.
 */
import type { OcclusionPoint, OcclusionShape } from "@engram/core";
import { type PointerEvent, useState } from "react";

type Shapes = OcclusionShape[];
/** The shapes with the pointer at `to` (0..1 of the image), from the shapes as they were. */
export type DragChange = (original: Shapes, to: OcclusionPoint, event: PointerEvent) => Shapes;

export function useShapeDrag({
  record,
  apply,
  onEnd,
}: {
  /** Keeps the shapes as they were, for undo. */
  record: (before: Shapes) => void;
  apply: (shapes: Shapes) => void;
  /** Called when a drag that moved something ends. */
  onEnd: () => void;
}) {
  const [held, setHeld] = useState<{ original: Shapes; change: DragChange; anywhere: boolean; moved: boolean } | null>(
    null,
  );

  const take = (original: Shapes, change: DragChange, options: { anywhere?: boolean } = {}) =>
    setHeld({ original, change, anywhere: options.anywhere ?? false, moved: false });

  const follow = (event: PointerEvent, to: OcclusionPoint) => {
    if (!held) return;
    if (!held.moved) {
      record(held.original);
      setHeld({ ...held, moved: true });
    }
    apply(held.change(held.original, to, event));
  };

  const release = () => {
    if (held?.moved) onEnd();
    setHeld(null);
  };

  /** Whether the pointer may leave the image while held (a turning handle may). */
  const anywhere = held?.anywhere ?? false;
  return { holding: held !== null, anywhere, take, follow, release };
}
