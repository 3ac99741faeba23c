/**
 * Sub-clients whose code loads with their first call: `createEngram` builds
 * them as stand-ins, so an app holding the SDK downloads a resource's
 * validation and queries only once a screen uses it (docs/conventions.md §1).
 */
import { toEngramError } from "./errors.js";

/** A sub-client made only of async methods: waiting for its module is one more step of a call already awaited. */
type AsyncMethods = Record<string, (...args: never[]) => Promise<unknown>>;

/**
 * A sub-client with the same methods as the one `load` resolves with, each
 * loading it on first call and then calling it. `methods` names every method,
 * so the stand-in cannot miss one the type has. A failed load (the network
 * dropped) rejects that call with an `EngramError` and the next call tries again.
 */
export function lazyClient<Client extends AsyncMethods>(
  load: () => Promise<Client>,
  methods: { [Name in keyof Client]: true },
): Client {
  const loaded = loadOnce(load);
  const standIn: Record<string, unknown> = {};
  for (const name of Object.keys(methods)) {
    standIn[name] = async (...args: never[]) => {
      const client = (await loaded()) as Record<string, (...args: never[]) => Promise<unknown>>;
      const method = client[name];
      if (!method) throw new Error(`${name} is not a method of the loaded client`);
      return method.apply(client, args);
    };
  }
  return standIn as Client;
}

/**
 * `load`, called once and its promise kept for every later call. A failed load
 * rejects with an `EngramError`, and the next call tries again.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw toEngramError(error);
    });
    return loading;
  };
}
