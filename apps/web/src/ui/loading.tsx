import { onlineManager } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";

const subscribe = (listener: () => void) => onlineManager.subscribe(listener);
const isOnline = () => onlineManager.isOnline();

/**
 * Shown while something loads; announced politely, once. Without a
 * connection the query waits (React Query pauses it), so this says why
 * instead of spinning: it loads by itself once the connection is back.
 */
export function Loading({ label = "Loading…" }: { label?: string }) {
  const online = useSyncExternalStore(subscribe, isOnline, () => true);
  return (
    <p className="loading" role="status">
      {online ? label : "You're offline. This loads by itself when you're back online."}
    </p>
  );
}
