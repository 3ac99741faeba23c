// @vitest-environment jsdom
// The module parses card HTML in a <template>, so this file needs a DOM; jsdom gives one in Node.
import { describe, expect, it } from "vitest";
import { mediaNames, withMediaUrls } from "./media-html.js";

describe("mediaNames", () => {
  it("lists the deck's own files named by images, sounds and sources, decoded", () => {
    const html =
      '<p><img src="cat%20photo.jpg"></p><audio src="meow.mp3"></audio><video><source src="purr.ogg"></video>';
    expect(mediaNames(html)).toEqual(["cat photo.jpg", "meow.mp3", "purr.ogg"]);
  });

  it("leaves out absolute links and root paths", () => {
    const html =
      '<img src="https://cdn.example/a.png"><img src="data:image/png;base64,AA=="><img src="/favicon.svg"><img src="b.png">';
    expect(mediaNames(html)).toEqual(["b.png"]);
  });

  it("keeps a name that is not valid percent-encoding as written", () => {
    expect(mediaNames('<img src="100%.png">')).toEqual(["100%.png"]);
  });

  it("finds nothing in text without media", () => {
    expect(mediaNames("<p>The src of the Nile</p>")).toEqual([]);
  });
});

describe("withMediaUrls", () => {
  const urls = new Map([
    ["cat photo.jpg", "https://storage.example/signed/cat?token=1"],
    ["meow.mp3", "https://storage.example/signed/meow?token=2"],
  ]);

  it("swaps each file's name for its signed link", () => {
    const html = withMediaUrls('<img src="cat%20photo.jpg" alt="A cat">', urls);
    const image = parse(html).querySelector("img");
    expect(image?.getAttribute("src")).toBe("https://storage.example/signed/cat?token=1");
    expect(image?.getAttribute("alt")).toBe("A cat");
  });

  it("shows a quiet box for an image without a link yet, so the app's origin is never asked for it", () => {
    const face = parse(withMediaUrls('<p><img src="dog.jpg"></p>', urls));
    expect(face.querySelector("img")).toBeNull();
    const box = face.querySelector(".card-media-pending");
    expect(box?.getAttribute("aria-label")).toBe("loading image: dog.jpg");
    expect(box?.textContent).toBe("");
  });

  it("says which image is missing when the deck has no such file", () => {
    const face = parse(
      withMediaUrls('<img src="not%20here.png"><img src="cat%20photo.jpg">', urls, new Set(["not here.png"])),
    );
    expect(face.querySelector(".card-media-missing")?.textContent).toBe("missing image: not here.png");
    expect(face.querySelectorAll("img")).toHaveLength(1);
  });

  it("drops the src of a sound without a link", () => {
    const audio = parse(withMediaUrls('<audio src="bark.mp3"></audio>', urls)).querySelector("audio");
    expect(audio?.hasAttribute("src")).toBe(false);
  });

  it("leaves absolute links alone", () => {
    const html = '<img src="https://cdn.example/a.png">';
    expect(parse(withMediaUrls(html, urls)).querySelector("img")?.getAttribute("src")).toBe(
      "https://cdn.example/a.png",
    );
  });

  it("shows a player for every sound", () => {
    const html = withMediaUrls('<audio src="meow.mp3"></audio><audio></audio>', urls);
    const sounds = [...parse(html).querySelectorAll("audio")];
    expect(sounds).toHaveLength(2);
    expect(sounds.every((audio) => audio.hasAttribute("controls"))).toBe(true);
    expect(sounds[0]?.getAttribute("src")).toBe("https://storage.example/signed/meow?token=2");
  });

  it("returns text without media unchanged", () => {
    const html = "<p>No <b>media</b> here</p>";
    expect(withMediaUrls(html, urls)).toBe(html);
  });
});

function parse(html: string): DocumentFragment {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
}
