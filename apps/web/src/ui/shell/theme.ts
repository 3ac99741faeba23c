/**
 * Light or dark: the system's choice (prefers-color-scheme) until the user
 * picks one, which is remembered. index.html applies the stored choice before
 * the first paint, so there is no flash of the other theme.
 */
import { useCallback, useEffect, useState } from "react";

export type Theme = "light" | "dark";

export const themeStorageKey = "engram-theme";

const darkQuery = "(prefers-color-scheme: dark)";

function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(themeStorageKey);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  return window.matchMedia(darkQuery).matches ? "dark" : "light";
}

export function useTheme() {
  const [chosen, setChosen] = useState<Theme | null>(storedTheme);
  const [system, setSystem] = useState<Theme>(systemTheme);

  useEffect(() => {
    const media = window.matchMedia(darkQuery);
    const onChange = () => setSystem(media.matches ? "dark" : "light");
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, []);

  useEffect(() => {
    if (chosen) document.documentElement.dataset.theme = chosen;
    else delete document.documentElement.dataset.theme;
  }, [chosen]);

  const theme = chosen ?? system;
  const toggle = useCallback(() => {
    const next: Theme = theme === "dark" ? "light" : "dark";
    setChosen(next);
    try {
      localStorage.setItem(themeStorageKey, next);
    } catch {
      // Private modes may refuse storage; the choice then lasts for this page only.
    }
  }, [theme]);

  return { theme, toggle };
}
