/**
 * The app's links and navigation, over wouter: the browser's history API with
 * path patterns, in a couple of kilobytes where a full router would weigh a
 * tenth of every screen's first download. Screens and shared code import
 * routing from here only, so the names below are the app's vocabulary.
 */
import { type AnchorHTMLAttributes, type ReactNode, useMemo } from "react";
import {
  Redirect,
  useSearch,
  useLocation as useWouterLocation,
  useParams as useWouterParams,
  Link as WouterLink,
} from "wouter";
import { useHistoryState } from "wouter/use-browser-location";

export { useSearchParams } from "wouter";

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one that Back returns to. */
  replace?: boolean;
  /** Kept with the entry and read back with `useLocation().state`. */
  state?: unknown;
}

/** Where the visitor is, as the address bar says, with the state the navigation there carried. */
export interface Location {
  pathname: string;
  /** `?…`, or empty. */
  search: string;
  /** `#…`, or empty. */
  hash: string;
  state: unknown;
}

export function useLocation(): Location {
  const [pathname] = useWouterLocation();
  const search = useSearch();
  const state = useHistoryState();
  const hash = window.location.hash;
  return useMemo(
    () => ({ pathname, search: search ? `?${search}` : "", hash, state }),
    [pathname, search, hash, state],
  );
}

export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  return useWouterLocation()[1];
}

/** The current route's `:name` segments, decoded. */
export function useParams(): Readonly<Record<string, string | undefined>> {
  const params = useWouterParams() as Record<string, string | undefined>;
  const decoded: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(params)) {
    // wouter also lists each segment by position; the app names its segments.
    if (!/^\d+$/.test(name)) decoded[name] = value === undefined ? undefined : decodeURIComponent(value);
  }
  return decoded;
}

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">;

export interface LinkProps extends AnchorProps, NavigateOptions {
  to: string;
  children?: ReactNode;
}

/** An in-app link: a real `<a href>` that navigates without reloading the page. */
export function Link({ to, ...props }: LinkProps) {
  return <WouterLink to={to} {...props} />;
}

/**
 * A link in the main navigation, marked current (`aria-current="page"`,
 * class `active`) on its page and on the pages under it.
 */
export function NavLink({ to, className, ...props }: LinkProps) {
  const [pathname] = useWouterLocation();
  const current = pathname === to || pathname.startsWith(`${to}/`);
  return (
    <WouterLink
      to={to}
      aria-current={current ? "page" : undefined}
      className={[className, current ? "active" : undefined].filter(Boolean).join(" ") || undefined}
      {...props}
    />
  );
}

/** Goes to `to` as soon as it renders. */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  return <Redirect to={to} replace={replace} state={state} />;
}
