/**
 * A promise settled from outside, for code that waits on something another
 * part of it finishes. A rejection nobody awaits is not reported as unhandled.
 */
export function deferred<T = void>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (reason: unknown) => void = () => undefined;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
