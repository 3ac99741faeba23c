import { useEffect, useRef } from "react";

/**
 * Plays the first sound of a face when it appears (Anki plays a side's audio
 * as it is shown). Keyed on the face's HTML so a new card plays again, and
 * re-tried once the sound's link arrives. Browsers may refuse autoplay before
 * the user has interacted; the player's controls remain.
 */
export function useAutoplay(enabled: boolean, html: string) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!enabled || !html.includes("<audio")) return;
    const audio = ref.current?.querySelector<HTMLAudioElement>("audio[src]");
    if (!audio) return;
    audio.play().catch(() => {
      // Autoplay refused (no user gesture yet): the visible controls still play it.
    });
    return () => audio.pause();
  }, [enabled, html]);
  return ref;
}
