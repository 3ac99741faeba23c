/**
 * A screen's first requests started with its route, beside its chunk and the
 * SDK, instead of after the screen has rendered: on a returning visit the
 * figures are on their way while the code is still arriving.
 */
import type { Engram } from "@engram/sdk";
import type { QueryClient } from "@tanstack/react-query";
import { hasStoredSession } from "./stored-session.js";

/** What a screen's route needs to start the screen's requests. */
export interface RouteServices {
  queryClient: QueryClient;
  loadEngram: () => Promise<Engram>;
}

/** Starts a screen's first requests; the same query options the screen then reads. */
export type Prefetch = (queryClient: QueryClient, engram: Engram, searchParams: URLSearchParams) => void;

/**
 * What the router calls as a screen's route is entered, with the address's
 * search params: it starts the screen's requests once its chunk and the SDK are
 * there, instead of after the screen has rendered. It holds nothing up: the
 * screen's queries pick the requests up, or make their own if these failed. A
 * visitor without a session is sent to sign in instead.
 */
export function prefetching<M>(
  services: RouteServices,
  load: () => Promise<M>,
  pick: (module: M) => Prefetch,
): (searchParams: URLSearchParams) => void {
  return (searchParams) => {
    if (!hasStoredSession()) return;
    Promise.all([load(), services.loadEngram()]).then(
      ([module, engram]) => pick(module)(services.queryClient, engram, searchParams),
      () => undefined,
    );
  };
}
