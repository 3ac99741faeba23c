/** Which redirect URLs GoTrue honours (internal/utilities/request.go `IsRedirectURLValid`). */
import type { StackConfig } from "../config/config.js";

const loopback = (hostname: string) => /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === "[::1]";

// gobwas/glob with separators "." and "/": `*` stays within a segment, `**` crosses them.
function globToRegExp(glob: string): RegExp {
  let pattern = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "*" && glob[i + 1] === "*") {
      pattern += ".*";
      i++;
    } else if (char === "*") pattern += "[^./]*";
    else if (char === "?") pattern += "[^./]";
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${pattern}$`);
}

export function isRedirectAllowed(config: StackConfig["auth"], target: string): boolean {
  let url: URL;
  let site: URL;
  try {
    url = new URL(target);
    site = new URL(config.siteUrl);
  } catch {
    return false;
  }
  if (url.protocol === site.protocol && url.hostname === site.hostname) {
    if (url.port === site.port || loopback(url.hostname) || url.hostname === "localhost") return true;
  }
  if (loopback(url.hostname)) return true;
  const bare = target.split("#")[0]?.split("?")[0] ?? target;
  return config.additionalRedirectUrls.some((glob) => globToRegExp(glob).test(target) || globToRegExp(glob).test(bare));
}

/** The `redirect_to` of a request if allowed, else the site URL. */
export function redirectTarget(config: StackConfig["auth"], requested: string | undefined | null): string {
  return requested && isRedirectAllowed(config, requested) ? requested : config.siteUrl;
}
