import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { unzipSync, zipSync } from "fflate";
import { decompress } from "fzstd";
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { ankiDefaultDeckConfig, deckConfigFromJson, deckConfigFromProtobuf, legacyDeckConfigId } from "./deck-configs";
import { readAnkiPackage } from "./read-package";
import type { AnkiDeckConfig, AnkiPackage } from "./types";

const fixtures = fileURLToPath(new URL("../../../../../../shared/fixtures/anki/", import.meta.url));
const read = (file: string) => readAnkiPackage(new Uint8Array(readFileSync(`${fixtures}${file}`)));

const defaults = (changes: Partial<AnkiDeckConfig> = {}): AnkiDeckConfig => ({ ...ankiDefaultDeckConfig, ...changes });
const configIds = (pkg: AnkiPackage) => new Set(pkg.decks.map((deck) => deck.configId));

describe("option groups in real Anki packages", () => {
  it("reads a legacy dconf from before the 2021 scheduler: leech action 0 suspends", async () => {
    const pkg = await read("collection.apkg");
    expect(pkg.deckConfigs).toEqual([defaults({ leechAction: "suspend" })]);
    expect(pkg.decks).toHaveLength(16);
    expect(configIds(pkg)).toEqual(new Set([1]));
  });

  it("reads a legacy dconf that tags leeches only", async () => {
    const pkg = await read("spoken-languages-pc-2-dec-21.apkg");
    expect(pkg.deckConfigs).toEqual([defaults()]);
    expect(configIds(pkg)).toEqual(new Set([1]));
  });

  it("reads the user's own limits and the explicit buryInterdayLearning of a newer legacy dconf", async () => {
    const pkg = await read("spoken-languages__english__Vocab__2023.apkg");
    expect(pkg.format).toBe("anki21");
    expect(pkg.deckConfigs).toEqual([defaults({ newPerDay: 50, reviewsPerDay: 100, leechAction: "suspend" })]);
    expect(pkg.decks.find((deck) => deck.name === "spoken-languages::english::Vocab::2023")?.configId).toBe(1);
  });

  it("reads schema 18's deck_config rows, a leech action left out of the protobuf being suspend", async () => {
    const pkg = await read("BarRonPcAp.colpkg");
    expect(pkg.format).toBe("anki21b");
    expect(pkg.deckConfigs).toEqual([defaults({ leechAction: "suspend" })]);
    expect(pkg.decks.map((deck) => deck.configId)).toEqual([1, 1, 1]);
  });

  it.each(["bg-hashtable.colpkg", "simple-spanish-w-audio.colpkg.apkg"])("reads %s's Default group", async (file) => {
    const pkg = await read(file);
    expect(pkg.deckConfigs).toEqual([defaults()]);
    expect(configIds(pkg)).toEqual(new Set([1]));
  });
});

describe("a legacy dconf entry", () => {
  const entry = (changes: Record<string, unknown> = {}) => ({
    id: 5,
    name: "Exam",
    new: { perDay: 7, bury: true },
    rev: { perDay: 150, bury: false },
    lapse: { leechFails: 5, leechAction: 1 },
    buryInterdayLearning: true,
    ...changes,
  });

  it("maps Anki's keys", () => {
    expect(deckConfigFromJson("5", entry())).toEqual({
      id: 5,
      name: "Exam",
      newPerDay: 7,
      reviewsPerDay: 150,
      leechThreshold: 5,
      leechAction: "tag_only",
      buryNew: true,
      buryReviews: false,
      buryInterdayLearning: true,
    });
  });

  it("cuts values to Engram's ranges and gives Anki's defaults for missing, unreadable or impossible ones", () => {
    expect(
      deckConfigFromJson(
        "5",
        entry({ new: { perDay: 12_000 }, rev: { perDay: -3 }, lapse: { leechFails: 500, leechAction: 7 } }),
      ),
    ).toMatchObject({ newPerDay: 9999, reviewsPerDay: 200, leechThreshold: 99, leechAction: "tag_only" });
    expect(
      deckConfigFromJson("5", entry({ new: { perDay: "30" }, rev: { perDay: "many" }, lapse: { leechFails: 0 } })),
    ).toMatchObject({ newPerDay: 30, reviewsPerDay: 200, leechThreshold: 8, leechAction: "tag_only" });
    expect(deckConfigFromJson("9", { new: null })).toEqual({ ...ankiDefaultDeckConfig, id: 9, name: "9" });
  });

  it("takes its id from the key, as Anki does, and refuses a key that is no id", () => {
    expect(deckConfigFromJson("6", entry({ id: 5 }))?.id).toBe(6);
    expect(deckConfigFromJson("default", entry({ id: "nope" }))).toBeUndefined();
  });

  it("gives filtered decks no group and normal decks their conf", () => {
    expect(legacyDeckConfigId({ dyn: 1, conf: 1 })).toBeNull();
    expect(legacyDeckConfigId({ dyn: true })).toBeNull();
    expect(legacyDeckConfigId({ dyn: 0, conf: "5" })).toBe(5);
    expect(legacyDeckConfigId({ dyn: 0 })).toBe(1);
  });
});

/** Protobuf wire encoding: varint fields, and messages as length-delimited fields. */
function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}
const num = (field: number, value: number) => [...varint(field * 8), ...varint(value)];
const msg = (field: number, bytes: number[]) => [...varint(field * 8 + 2), ...varint(bytes.length), ...bytes];
/** A float field (wire type 5), which the reader must step over. */
const float = (field: number) => [...varint(field * 8 + 5), 0, 0, 0x20, 0x40];

describe("a schema 18 deck_config row", () => {
  it("reads the fields by number, stepping over the rest", () => {
    const config = Uint8Array.from([
      ...msg(1, [0, 0, 0x80, 0x3f]),
      ...num(9, 7),
      ...num(10, 150),
      ...float(11),
      ...num(21, 1),
      ...num(22, 5),
      ...num(27, 1),
      ...num(29, 1),
    ]);
    expect(deckConfigFromProtobuf(5, "Exam", config)).toEqual({
      id: 5,
      name: "Exam",
      newPerDay: 7,
      reviewsPerDay: 150,
      leechThreshold: 5,
      leechAction: "tag_only",
      buryNew: true,
      buryReviews: false,
      buryInterdayLearning: true,
    });
  });

  it("reads absent fields as proto3 zeros, and a zero leech threshold as Anki does (8)", () => {
    expect(deckConfigFromProtobuf(2, "Empty", new Uint8Array(0))).toEqual({
      ...ankiDefaultDeckConfig,
      id: 2,
      name: "Empty",
      newPerDay: 0,
      reviewsPerDay: 0,
      leechAction: "suspend",
    });
  });
});

/** A zstd frame of raw (stored) blocks: what Anki compresses, without compressing. */
function zstdStored(data: Uint8Array): Uint8Array {
  const blockSize = 128 * 1024;
  const parts: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0xa0];
  for (let i = 0; i < 4; i++) parts.push(Math.floor(data.length / 256 ** i) % 256);
  const out: Uint8Array[] = [Uint8Array.from(parts)];
  for (let pos = 0; pos < data.length; pos += blockSize) {
    const size = Math.min(blockSize, data.length - pos);
    const header = size * 8 + (pos + size >= data.length ? 1 : 0);
    out.push(Uint8Array.from([header % 256, Math.floor(header / 256) % 256, Math.floor(header / 65536)]));
    out.push(data.subarray(pos, pos + size));
  }
  const frame = new Uint8Array(out.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of out) {
    frame.set(part, at);
    at += part.length;
  }
  return frame;
}

describe("a schema 18 collection with groups of its own", () => {
  /** bg-hashtable.colpkg with an "Exam" group, decks using it, a filtered deck and a deck whose group is gone. */
  async function withGroups(dropDefault: boolean): Promise<AnkiPackage> {
    const members = unzipSync(new Uint8Array(readFileSync(`${fixtures}bg-hashtable.colpkg`)));
    const SQL = await initSqlJs();
    const db = new SQL.Database(decompress(members["collection.anki21b"] as Uint8Array));
    db.exec(
      "pragma writable_schema = on; update sqlite_master set sql = replace(sql, 'unicase', 'nocase') where sql like '%unicase%'; pragma writable_schema = reset; drop index idx_decks_name;",
    );
    const exam = [...num(9, 7), ...num(10, 150), ...num(21, 1), ...num(22, 5), ...num(28, 1)];
    db.run("insert into deck_config values (5, 'Exam', 0, 0, ?)", [Uint8Array.from(exam)]);
    const deck = (id: number, name: string, kind: number[]) =>
      db.run("insert into decks values (?, ?, 0, 0, x'', ?)", [id, name, Uint8Array.from(kind)]);
    deck(10, "Exam\x1fPart 1", msg(1, num(1, 5)));
    deck(11, "Exam\x1fPart 2", msg(1, num(1, 5)));
    deck(12, "Cram", msg(2, msg(2, [])));
    deck(13, "Orphan", msg(1, num(1, 404)));
    if (dropDefault) db.run("delete from deck_config where id = 1");
    const collection = db.export();
    db.close();
    return readAnkiPackage(zipSync({ ...members, "collection.anki21b": zstdStored(collection) }));
  }

  it("reads every group and which one each deck uses", async () => {
    const pkg = await withGroups(false);
    expect(pkg.format).toBe("anki21b");
    expect(pkg.deckConfigs).toEqual([
      defaults(),
      {
        id: 5,
        name: "Exam",
        newPerDay: 7,
        reviewsPerDay: 150,
        leechThreshold: 5,
        leechAction: "tag_only",
        buryNew: false,
        buryReviews: true,
        buryInterdayLearning: false,
      },
    ]);
    expect(Object.fromEntries(pkg.decks.map((deck) => [deck.name, deck.configId]))).toEqual({
      Default: 1,
      "Exam::Part 1": 5,
      "Exam::Part 2": 5,
      Cram: null,
      Orphan: 1,
    });
  });

  it("puts a deck whose group is gone on Anki's defaults when group 1 is gone too", async () => {
    const pkg = await withGroups(true);
    expect(pkg.deckConfigs.map((config) => config.id)).toEqual([1, 5]);
    expect(pkg.deckConfigs[0]).toEqual(ankiDefaultDeckConfig);
    expect(pkg.decks.find((deck) => deck.name === "Orphan")?.configId).toBe(1);
    expect(pkg.decks.find((deck) => deck.name === "Default")?.configId).toBe(1);
  });
});

describe("a legacy collection whose dconf cannot be read", () => {
  it("leaves every deck on Anki's defaults instead of refusing the notes", async () => {
    const members = unzipSync(new Uint8Array(readFileSync(`${fixtures}collection.apkg`)));
    const SQL = await initSqlJs();
    const db = new SQL.Database(members["collection.anki2"] as Uint8Array);
    db.run("update col set dconf = 'not json'");
    const collection = db.export();
    db.close();
    const pkg = await readAnkiPackage(zipSync({ ...members, "collection.anki2": collection }));
    expect(pkg.deckConfigs).toEqual([ankiDefaultDeckConfig]);
    expect(configIds(pkg)).toEqual(new Set([1]));
    expect(pkg.notes).toHaveLength(393);
  });
});
