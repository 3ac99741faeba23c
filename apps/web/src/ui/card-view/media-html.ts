/**
 * Media links in sanitised card HTML. The HTML is parsed in an inert
 * <template> (nothing loads or runs there); relative names are swapped for the
 * deck's signed links, and a name without a link yet loses its src so the
 * browser never asks the app's own origin for it. An image without a link
 * shows a quiet box while its link loads, and says "missing image: name" when
 * the deck has no such file.
 */
const mediaSelector = "img[src], audio[src], source[src]";

function parse(html: string): HTMLTemplateElement {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template;
}

/** Absolute links (already a storage URL) are left alone; everything else names a file of the deck. */
function isRelative(src: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith("/");
}

function fileName(src: string): string {
  try {
    return decodeURIComponent(src);
  } catch {
    return src;
  }
}

export function mediaNames(html: string): string[] {
  if (!html.includes("src=")) return [];
  const names: string[] = [];
  for (const element of parse(html).content.querySelectorAll(mediaSelector)) {
    const src = element.getAttribute("src") ?? "";
    if (isRelative(src)) names.push(fileName(src));
  }
  return names;
}

export function withMediaUrls(
  html: string,
  urls: ReadonlyMap<string, string>,
  missing: ReadonlySet<string> = new Set(),
): string {
  if (!html.includes("src=") && !html.includes("<audio")) return html;
  const template = parse(html);
  for (const element of template.content.querySelectorAll(mediaSelector)) {
    const src = element.getAttribute("src") ?? "";
    if (!isRelative(src)) continue;
    const name = fileName(src);
    const url = urls.get(name);
    if (url) element.setAttribute("src", url);
    else if (element.localName === "img") element.replaceWith(imageStandIn(name, missing.has(name)));
    else element.removeAttribute("src");
  }
  // A sound without controls would be invisible: show the player like Anki's replay button.
  for (const audio of template.content.querySelectorAll("audio")) audio.setAttribute("controls", "");
  return template.innerHTML;
}

/** What stands where an image without a link would be: a box while loading, words when the file is missing. */
function imageStandIn(name: string, isMissing: boolean): HTMLElement {
  const standIn = document.createElement("span");
  if (isMissing) {
    standIn.className = "card-media-missing";
    standIn.textContent = `missing image: ${name}`;
  } else {
    standIn.className = "card-media-pending";
    standIn.setAttribute("role", "img");
    standIn.setAttribute("aria-label", `loading image: ${name}`);
  }
  return standIn;
}
