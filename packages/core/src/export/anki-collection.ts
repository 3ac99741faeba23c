/**
 * The legacy Anki collection (`collection.anki2`, schema version 11): its DDL
 * and the JSON kept in `col` for the stock note types, decks and options.
 */
import type { NoteKind } from "../notes";

export const schema11 = `
create table col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
  ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
  models text not null, decks text not null, dconf text not null, tags text not null);
create table notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
  usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
  flags integer not null, data text not null);
create table cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
  mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
  ivl integer not null, factor integer not null, reps integer not null, lapses integer not null, left integer not null,
  odue integer not null, odid integer not null, flags integer not null, data text not null);
create table revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
  ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
create table graves (usn integer not null, oid integer not null, type integer not null);
create index ix_notes_usn on notes (usn);
create index ix_cards_usn on cards (usn);
create index ix_revlog_usn on revlog (usn);
create index ix_cards_nid on cards (nid);
create index ix_cards_sched on cards (did, queue, due);
create index ix_revlog_cid on revlog (cid);
create index ix_notes_csum on notes (csum);
`;

/** Fixed model ids, so a re-export maps onto the same note types in Anki. */
export const modelIds: Record<NoteKind, number> = {
  basic: 1_700_000_000_001,
  basic_reversed: 1_700_000_000_002,
  cloze: 1_700_000_000_003,
};

const css =
  ".card {\n font-family: arial;\n font-size: 20px;\n text-align: center;\n color: black;\n background-color: white;\n}\n";
const clozeCss = `${css}\n.cloze {\n font-weight: bold;\n color: blue;\n}\n`;

function field(name: string, ord: number) {
  return { name, ord, sticky: false, rtl: false, font: "Arial", size: 20, media: [] };
}

function template(name: string, ord: number, qfmt: string, afmt: string) {
  return { name, ord, qfmt, afmt, bqfmt: "", bafmt: "", did: null, bfont: "", bsize: 0 };
}

const answer = (side: string) => `{{FrontSide}}\n\n<hr id=answer>\n\n{{${side}}}`;

export const modelFields: Record<NoteKind, string[]> = {
  basic: ["Front", "Back"],
  basic_reversed: ["Front", "Back"],
  cloze: ["Text", "Back Extra"],
};

export function models(deckId: number, mod: number) {
  const base = (kind: NoteKind, name: string, type: 0 | 1) => ({
    id: modelIds[kind],
    name,
    type,
    mod,
    usn: -1,
    sortf: 0,
    did: deckId,
    flds: modelFields[kind].map(field),
    css: type === 1 ? clozeCss : css,
    latexPre:
      "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n",
    latexPost: "\\end{document}",
    latexsvg: false,
    tags: [],
    vers: [],
  });
  return {
    [modelIds.basic]: {
      ...base("basic", "Basic", 0),
      tmpls: [template("Card 1", 0, "{{Front}}", answer("Back"))],
      req: [[0, "any", [0]]],
    },
    [modelIds.basic_reversed]: {
      ...base("basic_reversed", "Basic (and reversed card)", 0),
      tmpls: [template("Card 1", 0, "{{Front}}", answer("Back")), template("Card 2", 1, "{{Back}}", answer("Front"))],
      req: [
        [0, "any", [0]],
        [1, "any", [1]],
      ],
    },
    [modelIds.cloze]: {
      ...base("cloze", "Cloze", 1),
      tmpls: [template("Cloze", 0, "{{cloze:Text}}", "{{cloze:Text}}<br>\n{{Back Extra}}")],
    },
  };
}

function deck(id: number, name: string, mod: number) {
  return {
    id,
    name,
    mod,
    usn: -1,
    desc: "",
    dyn: 0,
    conf: 1,
    collapsed: false,
    browserCollapsed: false,
    newToday: [0, 0],
    revToday: [0, 0],
    lrnToday: [0, 0],
    timeToday: [0, 0],
    extendNew: 0,
    extendRev: 0,
  };
}

export function decks(deckId: number, name: string, mod: number) {
  return { "1": deck(1, "Default", mod), [deckId]: deck(deckId, name, mod) };
}

export const dconf = {
  "1": {
    id: 1,
    name: "Default",
    mod: 0,
    usn: 0,
    maxTaken: 60,
    autoplay: true,
    timer: 0,
    replayq: true,
    dyn: false,
    new: { delays: [1, 10], ints: [1, 4, 0], initialFactor: 2500, order: 1, perDay: 20, bury: false },
    rev: { perDay: 200, ease4: 1.3, ivlFct: 1, maxIvl: 36500, hardFactor: 1.2, bury: false },
    lapse: { delays: [10], mult: 0, minInt: 1, leechFails: 8, leechAction: 1 },
  },
};

export function conf(deckId: number) {
  return {
    activeDecks: [deckId],
    curDeck: deckId,
    newSpread: 0,
    collapseTime: 1200,
    timeLim: 0,
    estTimes: true,
    dueCounts: true,
    curModel: String(modelIds.basic),
    nextPos: 1,
    sortType: "noteFld",
    sortBackwards: false,
    addToCur: true,
  };
}
