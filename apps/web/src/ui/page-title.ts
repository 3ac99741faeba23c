import { useEffect } from "react";

/** Each screen names the tab, so history and screen readers tell pages apart. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Engram` : "Engram";
  }, [title]);
}
