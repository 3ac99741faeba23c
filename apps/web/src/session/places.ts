/** Where to go after signing in, and the links auth emails carry back to the app. */
import type { Location } from "../lib/navigation.js";

export const defaultPlace = "/decks";

/** Only paths inside the app: `//evil.example` or `https://…` would leave it. */
export function safeNext(value: string | null | undefined, fallback = defaultPlace): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  return value;
}

export function placeOf(location: Pick<Location, "pathname" | "search" | "hash">): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

export function withNext(path: string, next: string): string {
  return next === defaultPlace ? path : `${path}?next=${encodeURIComponent(next)}`;
}

/** The `redirectTo` of every auth email: the callback, then `next`. */
export function callbackUrl(next: string): string {
  return `${window.location.origin}/auth/callback?next=${encodeURIComponent(next)}`;
}

/** Why the user was sent to sign in, carried in the navigation state. */
export interface SignInState {
  reason?: "expired";
}
