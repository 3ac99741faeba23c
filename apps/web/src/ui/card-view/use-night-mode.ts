import { useSyncExternalStore } from "react";

/**
 * Whether the app is dark, as styles.css decides it: the user's choice in
 * `data-theme` on <html>, else the system's preference. Cards get Anki's
 * night-mode classes from this, so note types that style them follow the app.
 */
const darkQuery = "(prefers-color-scheme: dark)";

function isDark(): boolean {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "dark" || chosen === "light") return chosen === "dark";
  return window.matchMedia(darkQuery).matches;
}

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(darkQuery);
  media.addEventListener("change", onChange);
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => {
    media.removeEventListener("change", onChange);
    observer.disconnect();
  };
}

export function useNightMode(): boolean {
  return useSyncExternalStore(subscribe, isDark, () => false);
}
