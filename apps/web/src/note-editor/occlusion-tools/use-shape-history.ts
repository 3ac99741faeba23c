/**
 * Undo and redo for the editor's shapes: each change keeps the list before it.
 * Changes with the same `merge` key in a row (typing in a label, turning one
 * shape) are one step, so undo takes back the whole edit.
 */
import type { OcclusionShape } from "@engram/core";
import { useRef, useState } from "react";

type Shapes = OcclusionShape[];
const maximumSteps = 100;

export function useShapeHistory() {
  const [past, setPast] = useState<Shapes[]>([]);
  const [future, setFuture] = useState<Shapes[]>([]);
  const lastMerge = useRef<string | null>(null);

  /** Notes that `before` is about to be replaced. */
  const record = (before: Shapes, merge?: string) => {
    setFuture([]);
    if (merge && merge === lastMerge.current) return;
    lastMerge.current = merge ?? null;
    setPast((steps) => [...steps.slice(-(maximumSteps - 1)), before]);
  };

  /** The list to go back to from `current`, or null when there is none. */
  const undo = (current: Shapes): Shapes | null => {
    const previous = past.at(-1);
    if (!previous) return null;
    lastMerge.current = null;
    setPast((steps) => steps.slice(0, -1));
    setFuture((steps) => [current, ...steps]);
    return previous;
  };

  const redo = (current: Shapes): Shapes | null => {
    const [next] = future;
    if (!next) return null;
    lastMerge.current = null;
    setFuture((steps) => steps.slice(1));
    setPast((steps) => [...steps, current]);
    return next;
  };

  return { record, undo, redo, canUndo: past.length > 0, canRedo: future.length > 0 };
}
