import { limits } from "@engram/core";
import { beforeAll, describe, expect, test } from "vitest";
import { adminClient, errorOf, type SignedIn, signedIn } from "./support/engram.js";
import { blobOfSize } from "./support/files.js";

// The PNG signature and a few bytes: Storage checks the declared type, not the content.
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const fetchBytes = async (url: string) => {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
};

async function deckWithMembers() {
  const owner = await signedIn("owner");
  const deck = await owner.engram.decks.create({ name: "Histology" });
  const join = async (role: "editor" | "viewer") => {
    const member = await signedIn(role);
    await member.engram.invites.accept((await owner.engram.invites.create(deck.id, { role })).token);
    return member;
  };
  return { owner, deck, editor: await join("editor"), viewer: await join("viewer") };
}

// One deck with its members and one stranger for the whole file: each test
// writes under its own names, and making accounts and a deck costs more than
// the checks themselves. Tests that need a user in a fresh state make their own.
let shared: Awaited<ReturnType<typeof deckWithMembers>>;
let stranger: SignedIn;
beforeAll(async () => {
  [shared, stranger] = await Promise.all([deckWithMembers(), signedIn("stranger")]);
});

describe("media", () => {
  test("an editor uploads an image that members read through a signed link", async () => {
    const { deck, editor, viewer } = shared;
    const path = await editor.engram.storage.uploadMedia(deck.id, png, { name: "cell wall.png" });
    expect(path).toMatch(new RegExp(`^${deck.id}/cell-wall\\.png$`));

    const url = await viewer.engram.storage.mediaUrl(path, { expiresIn: 60 });
    expect(await fetchBytes(url)).toEqual(png);
    expect(await bytesOf(await viewer.engram.storage.downloadMedia(path))).toEqual(png);
  });

  test("without a name each upload gets its own, typed from the Blob", async () => {
    const { owner, deck } = shared;
    const sound = new Blob([new Uint8Array([0x49, 0x44, 0x33, 4, 0])], { type: "audio/mpeg" }); // an ID3 header
    const first = await owner.engram.storage.uploadMedia(deck.id, sound);
    const second = await owner.engram.storage.uploadMedia(deck.id, sound);
    expect(first).not.toBe(second);
    expect(first).toMatch(/\.mp3$/);
    expect((await owner.engram.storage.downloadMedia(first)).type).toBe("audio/mpeg");
  });

  // No bucket takes SVG (supabase/README.md, "Security model on hosted Supabase"): the page draws it as PNG.
  const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect fill="teal"/></svg>'], {
    type: "image/svg+xml",
  });

  test("an SVG is stored as the PNG its rasteriser draws, under a .png name", async () => {
    const { owner, deck } = shared;
    const drawn: string[] = [];
    const path = await owner.engram.storage.uploadMedia(deck.id, svg, {
      name: "diagram.svg",
      rasterizeSvg: async (bytes) => {
        drawn.push(new TextDecoder().decode(bytes));
        return png;
      },
    });
    expect(drawn).toEqual([await svg.text()]);
    expect(path).toBe(`${deck.id}/diagram.png`);
    const stored = await owner.engram.storage.downloadMedia(path);
    expect(stored.type).toBe("image/png");
    expect(await bytesOf(stored)).toEqual(png);
  });

  test("an SVG is refused when there is no rasteriser, or it cannot draw one; nothing is stored", async () => {
    const { owner, deck } = shared;
    const attempts = [
      owner.engram.storage.uploadMedia(deck.id, svg, { name: "plain.svg" }),
      owner.engram.storage.uploadMedia(deck.id, svg, {
        name: "broken.svg",
        rasterizeSvg: () => Promise.reject(new Error("cannot draw")),
      }),
      // What comes back must be a PNG: an SVG handed back as it was is not stored.
      owner.engram.storage.uploadMedia(deck.id, svg, {
        name: "echo.svg",
        rasterizeSvg: async (bytes) => bytes,
      }),
    ];
    for (const attempt of attempts) {
      expect(await errorOf(attempt)).toMatchObject({ code: "validation", field: "file", rule: "svg" });
    }
    const names = ((await adminClient().storage.from("media").list(deck.id)).data ?? []).map((file) => file.name);
    expect(names.filter((name) => /^(plain|broken|echo)\./.test(name))).toEqual([]);
  });

  test("a file over 10 MB is quota-exceeded before any upload", async () => {
    const { owner, deck } = shared;
    const big = await blobOfSize(limits.mediaBytes + 1, "image/png");
    const error = await errorOf(owner.engram.storage.uploadMedia(deck.id, big, { name: "big.png" }));
    expect(error).toMatchObject({ code: "quota-exceeded", field: "file", rule: "max_size" });
    expect((await errorOf(owner.engram.storage.downloadMedia(`${deck.id}/big.png`))).code).toBe("not-found");
  });

  test("a type the media bucket does not take fails validation", async () => {
    const { owner, deck } = shared;
    const script = new Blob(["alert(1)"], { type: "text/javascript" });
    const error = await errorOf(owner.engram.storage.uploadMedia(deck.id, script));
    expect(error).toMatchObject({ code: "validation", field: "contentType", rule: "type" });
  });

  test("a viewer cannot upload or delete media; a stranger finds no deck", async () => {
    const { owner, deck, viewer } = shared;
    const path = await owner.engram.storage.uploadMedia(deck.id, png, { name: "a.png" });
    expect((await errorOf(viewer.engram.storage.uploadMedia(deck.id, png, { name: "b.png" }))).code).toBe(
      "permission-denied",
    );
    expect((await errorOf(viewer.engram.storage.removeMedia(path))).code).toBe("permission-denied");

    expect((await errorOf(stranger.engram.storage.uploadMedia(deck.id, png, { name: "c.png" }))).code).toBe(
      "not-found",
    );
    expect((await errorOf(stranger.engram.storage.mediaUrl(path))).code).toBe("not-found");
    expect((await errorOf(stranger.engram.storage.removeMedia(path))).code).toBe("not-found");
    expect(await bytesOf(await owner.engram.storage.downloadMedia(path))).toEqual(png);
  });

  test("uploading over an existing name is a conflict", async () => {
    const { owner, deck, editor } = shared;
    await owner.engram.storage.uploadMedia(deck.id, png, { name: "same.png" });
    const error = await errorOf(editor.engram.storage.uploadMedia(deck.id, png, { name: "same.png" }));
    expect(error.code).toBe("conflict");
  });

  test("an editor deletes media; it is gone", async () => {
    const { owner, deck, editor } = shared;
    const path = await owner.engram.storage.uploadMedia(deck.id, png, { name: "gone.png" });
    expect(await editor.engram.storage.removeMedia([path])).toBe(1);
    expect((await errorOf(owner.engram.storage.downloadMedia(path))).code).toBe("not-found");
  });

  test("a path outside the deck folders fails validation", async () => {
    const { owner, deck } = shared;
    for (const path of ["a.png", `${deck.id}/../x.png`, `${deck.id}/`]) {
      expect((await errorOf(owner.engram.storage.mediaUrl(path))).code).toBe("validation");
    }
  });
});

describe("avatars", () => {
  test("an uploaded avatar is set on the profile and visible to co-members", async () => {
    const { owner, viewer } = shared;
    const path = await owner.engram.storage.uploadAvatar(new Blob([png], { type: "image/png" }));
    expect(path.startsWith(`${owner.account.id}/`)).toBe(true);
    expect((await owner.engram.profile.get()).avatar_path).toBe(path);
    expect(await fetchBytes(await viewer.engram.storage.avatarUrl(path))).toEqual(png);

    expect((await errorOf(stranger.engram.storage.avatarUrl(path))).code).toBe("not-found");
  });

  test("a new avatar replaces the old file; removing clears the profile", async () => {
    const user = await signedIn();
    const first = await user.engram.storage.uploadAvatar(png, { name: "me.png" });
    const second = await user.engram.storage.uploadAvatar(png, { name: "me.png" });
    expect(second).not.toBe(first);
    expect((await errorOf(user.engram.storage.avatarUrl(first))).code).toBe("not-found");

    await user.engram.storage.removeAvatar();
    expect((await user.engram.profile.get()).avatar_path).toBeNull();
    expect((await errorOf(user.engram.storage.avatarUrl(second))).code).toBe("not-found");
  });

  test("an avatar over 2 MB is quota-exceeded; a sound is not an avatar", async () => {
    const user = await signedIn();
    const big = await blobOfSize(limits.avatarBytes + 1, "image/jpeg");
    expect(await errorOf(user.engram.storage.uploadAvatar(big))).toMatchObject({ code: "quota-exceeded" });
    const sound = new Blob([png], { type: "audio/mpeg" });
    expect(await errorOf(user.engram.storage.uploadAvatar(sound))).toMatchObject({ code: "validation" });
    expect((await user.engram.profile.get()).avatar_path).toBeNull();
  });
});

describe("imports and exports", () => {
  test("an import file goes to the user's folder in imports", async () => {
    const user = await signedIn();
    const csv = new File(["front,back\nperro,dog\n"], "spanish deck.csv", { type: "text/csv" });
    const path = await user.engram.storage.uploadImport(csv);
    expect(path).toMatch(new RegExp(`^${user.account.id}/[0-9a-f]{8}-spanish-deck\\.csv$`));
    const { data } = await user.supabase.storage.from("imports").download(path);
    expect(await data?.text()).toBe("front,back\nperro,dog\n");
  });

  test("an import's type comes from its name, whatever the browser called it", async () => {
    const user = await signedIn();
    // Browsers on Windows call a .csv file an Excel sheet.
    const csv = new File(["front,back\n"], "deck.csv", { type: "application/vnd.ms-excel" });
    const path = await user.engram.storage.uploadImport(csv);
    const { data } = await user.supabase.storage.from("imports").download(path);
    expect(data?.type).toBe("text/csv");
  });

  test("an import declared as a page or a picture is refused before any upload", async () => {
    const user = await signedIn();
    for (const contentType of ["text/html", "image/svg+xml"]) {
      const error = await errorOf(user.engram.storage.uploadImport(new Blob(["<p>"]), { name: "deck", contentType }));
      expect(error).toMatchObject({ code: "validation", field: "contentType", rule: "type" });
    }
    const { data } = await adminClient().storage.from("imports").list(user.account.id);
    expect(data).toEqual([]);
  });

  test("an import over 200 MB is quota-exceeded before any upload", async () => {
    const user = await signedIn();
    const big = await blobOfSize(limits.importBytes + 1);
    expect(big.size).toBe(limits.importBytes + 1);
    const error = await errorOf(user.engram.storage.uploadImport(big, { name: "huge.apkg" }));
    expect(error).toMatchObject({ code: "quota-exceeded", detail: { limit: limits.importBytes } });
  });

  test("import jobs are the user's own", async () => {
    const user = await signedIn();
    expect(await user.engram.storage.importJobs()).toEqual([]);
    const { data: job, error } = await adminClient()
      .from("import_jobs")
      .insert({ user_id: user.account.id, source: "csv", total: 10, processed: 4, status: "running" })
      .select("*")
      .single();
    expect(error).toBeNull();
    expect(await user.engram.storage.importJobs()).toEqual([expect.objectContaining({ id: job?.id, processed: 4 })]);
    expect(await user.engram.storage.importJob(job?.id ?? "")).toMatchObject({ status: "running", total: 10 });

    expect((await errorOf(stranger.engram.storage.importJob(job?.id ?? ""))).code).toBe("not-found");
    expect(await stranger.engram.storage.importJobs()).toEqual([]);
    expect((await errorOf(stranger.engram.storage.importJob("job-1"))).code).toBe("validation");
  });

  test("the user lists their exports and downloads one through a signed link", async () => {
    const user = await signedIn();
    const path = `${user.account.id}/histology.csv`;
    const { error } = await adminClient()
      .storage.from("exports")
      .upload(path, new Blob(["front,back\n"], { type: "text/csv" }));
    expect(error).toBeNull();

    expect(await user.engram.storage.listExports()).toEqual([
      expect.objectContaining({ path, name: "histology.csv", size: 11 }),
    ]);
    const response = await fetch(await user.engram.storage.exportUrl(path));
    expect(await response.text()).toBe("front,back\n");

    expect(await stranger.engram.storage.listExports()).toEqual([]);
    expect((await errorOf(stranger.engram.storage.exportUrl(path))).code).toBe("not-found");
  });
});
