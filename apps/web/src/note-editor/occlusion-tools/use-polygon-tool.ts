/**
 * Drawing a polygon, as Anki's polygon tool: each click adds a corner; a
 * click on the first corner, a double click or Enter closes it; Escape drops
 * it. From the keyboard, Space shows a cursor, the arrow keys move it and
 * Space adds a corner there.
 */
import type { OcclusionPoint } from "@engram/core";
import { type KeyboardEvent, type RefObject, useState } from "react";
import { clamp, minimumSize } from "./geometry.js";
import { closeRadius } from "./polygon-draft.js";

type Point = OcclusionPoint;
export type PolygonDraftState = { points: Point[]; cursor: Point | null };

export const arrowMoves: Record<string, Point> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
};
export const step = 0.01;
export const bigStep = 0.05;

export function usePolygonTool(surface: RefObject<HTMLElement | null>, onClosed: (points: Point[]) => void) {
  const [draft, setDraft] = useState<PolygonDraftState | null>(null);

  /** How far apart two points are on screen, in CSS pixels. */
  const screenDistance = (a: Point, b: Point) => {
    const rect = surface.current?.getBoundingClientRect();
    return rect ? Math.hypot((a.x - b.x) * rect.width, (a.y - b.y) * rect.height) : 0;
  };

  /** Closes the polygon when it has three corners and some size; a smaller one is dropped. */
  const finish = () => {
    if (!draft || draft.points.length < 3) return;
    const xs = draft.points.map((point) => point.x);
    const ys = draft.points.map((point) => point.y);
    setDraft(null);
    if (Math.max(...xs) - Math.min(...xs) < minimumSize || Math.max(...ys) - Math.min(...ys) < minimumSize) return;
    onClosed(draft.points);
  };

  /** The next corner; on the first corner, or on the last again (a double click), it closes instead. */
  const addPoint = (point: Point) => {
    const points = draft?.points ?? [];
    const [first] = points;
    const last = points.at(-1);
    if (first && points.length >= 3 && screenDistance(point, first) <= closeRadius) return finish();
    if (last && screenDistance(point, last) < 4) return;
    setDraft({ points: [...points, point], cursor: draft?.cursor ?? null });
  };

  const follow = (point: Point) => {
    if (draft) setDraft({ ...draft, cursor: point });
  };

  /** Handles the polygon keys; false when the key is not one of them. */
  const onKey = (event: KeyboardEvent): boolean => {
    const cursor = draft?.cursor ?? null;
    const move = arrowMoves[event.key];
    if (event.key === "Escape" && draft) setDraft(null);
    else if (event.key === "Enter" && draft) finish();
    else if (event.key === " ") {
      if (cursor) addPoint(cursor);
      else setDraft({ points: draft?.points ?? [], cursor: { x: 0.5, y: 0.5 } });
    } else if (move && cursor) {
      const amount = event.shiftKey ? bigStep : step;
      setDraft({
        points: draft?.points ?? [],
        cursor: { x: clamp(cursor.x + move.x * amount), y: clamp(cursor.y + move.y * amount) },
      });
    } else return false;
    event.preventDefault();
    return true;
  };

  return { draft, addPoint, finish, follow, onKey, cancel: () => setDraft(null) };
}
