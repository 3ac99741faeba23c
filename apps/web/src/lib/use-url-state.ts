/**
 * A screen's state kept in the URL's search params (docs/conventions.md §10):
 * read as typed values through the screen's schema, written as patches. Values
 * equal to their default stay out of the URL, and ones it cannot read give the default.
 */
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "./navigation.js";

/** One value of a screen's state and the search param that holds it. */
export interface UrlField<T> {
  param: string;
  /** The value for the param's text, `null` when it is absent; the default for anything unexpected. */
  parse: (raw: string | null) => T;
  /** The param's text for a value, or `null` to leave the param out. */
  format: (value: T) => string | null;
}

export type UrlSchema<T> = { [K in keyof T]: UrlField<T[K]> };

export interface UrlUpdateOptions {
  /** Replace the history entry instead of adding one that Back returns from. */
  replace?: boolean;
}

/** Free text, left out of the URL when empty. */
export function textField(param: string): UrlField<string> {
  return { param, parse: (raw) => raw ?? "", format: (value) => value || null };
}

/** One of a few choices; anything else reads as `fallback`, which stays out of the URL. */
export function choiceField<V extends string | number>(param: string, choices: readonly V[], fallback: V): UrlField<V> {
  return {
    param,
    parse: (raw) => choices.find((choice) => String(choice) === raw) ?? fallback,
    format: (value) => (value !== fallback && choices.includes(value) ? String(value) : null),
  };
}

/** The values `searchParams` hold, each read by its field. */
export function readUrlState<T>(schema: UrlSchema<T>, searchParams: URLSearchParams): T {
  const read = {} as T;
  for (const key of Object.keys(schema) as (keyof T)[]) {
    const field = schema[key];
    read[key] = field.parse(searchParams.get(field.param));
  }
  return read;
}

/**
 * The screen's values and a function that changes some of them. Pass a schema
 * made once, outside the component: it is a dependency of both.
 */
export function useUrlState<T>(schema: UrlSchema<T>): [T, (patch: Partial<T>, options?: UrlUpdateOptions) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const values = useMemo(() => readUrlState(schema, searchParams), [schema, searchParams]);

  // Two changes in a row (clear the search, then type a tag) must build on each
  // other, not both on the URL of the last render. The router renders the URLs
  // asked for some time later, one after another: those are not news, while a
  // URL nobody here asked for (Back, a link) replaces what the next change builds on.
  const latest = useRef(searchParams);
  const pending = useRef<string[]>([]);
  useEffect(() => {
    const index = pending.current.indexOf(searchParams.toString());
    if (index === -1) {
      pending.current = [];
      latest.current = searchParams;
    } else {
      pending.current = pending.current.slice(index + 1);
    }
  }, [searchParams]);

  const update = useCallback(
    (patch: Partial<T>, { replace = false }: UrlUpdateOptions = {}) => {
      const next = new URLSearchParams(latest.current);
      for (const key of Object.keys(patch) as (keyof T)[]) {
        const field = schema[key];
        const text = field.format(patch[key] as T[keyof T]);
        if (text === null) next.delete(field.param);
        else next.set(field.param, text);
      }
      latest.current = next;
      pending.current.push(next.toString());
      setSearchParams(next, { replace });
    },
    [schema, setSearchParams],
  );

  return [values, update];
}
