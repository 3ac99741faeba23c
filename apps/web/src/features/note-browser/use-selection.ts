/** Which notes are selected: click toggles one, shift-click a range from the last one clicked (as in a file list). */
import { useCallback, useState } from "react";

export function useSelection(orderedIds: readonly string[]) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [anchor, setAnchor] = useState<number | null>(null);

  const toggle = useCallback(
    (index: number, range: boolean) => {
      const id = orderedIds[index];
      if (!id) return;
      setSelected((current) => {
        const next = new Set(current);
        if (range && anchor !== null) {
          // The range takes the state of the row clicked last.
          const select = !current.has(id);
          const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
          for (const other of orderedIds.slice(from, to + 1)) {
            if (select) next.add(other);
            else next.delete(other);
          }
        } else if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
      setAnchor(index);
    },
    [orderedIds, anchor],
  );

  const replace = useCallback((ids: readonly string[]) => setSelected(new Set(ids)), []);
  const clear = useCallback(() => {
    setSelected(new Set());
    setAnchor(null);
  }, []);

  return { selected, toggle, replace, clear };
}
