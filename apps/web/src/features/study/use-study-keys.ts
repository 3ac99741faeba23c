import { useEffect, useRef } from "react";
import { isTypingTarget } from "../../ui/keys.js";
import { isActivationOfFocused, type StudyAction, shortcutFor } from "./shortcuts.js";

/**
 * One keydown listener for the screen, reading the shortcut table. The latest
 * `act` is used without re-subscribing, so a key never sees a stale card.
 * Returns true from `act` when the key did something (its default is then prevented).
 */
export function useStudyKeys(act: (action: StudyAction, key: string) => boolean) {
  const latest = useRef(act);
  latest.current = act;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return;
      // A card's faces are in a shadow root: the key's own target is the first on its path.
      const target = event.composedPath()[0] ?? event.target;
      if (isTypingTarget(target) || isActivationOfFocused(event)) return;
      const action = shortcutFor(event);
      if (action && latest.current(action, event.key)) event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
