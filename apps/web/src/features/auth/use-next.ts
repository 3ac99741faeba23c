import { useSearchParams } from "../../lib/navigation.js";
import { safeNext } from "../../session/places.js";

/** The place to return to after an auth screen (`?next=`), always inside the app. */
export function useNext(fallback?: string): string {
  const [params] = useSearchParams();
  return safeNext(params.get("next"), fallback);
}
