import { useEffect, useRef } from "react";
import { useLocation } from "../../lib/navigation.js";

/**
 * After moving to another screen, focus goes to the page's content, as a full
 * page load would put a screen reader there, instead of staying on a link
 * that may no longer exist.
 */
export function useFocusOnNavigate(targetId: string) {
  const { pathname } = useLocation();
  const previous = useRef(pathname);

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    document.getElementById(targetId)?.focus();
  }, [pathname, targetId]);
}
