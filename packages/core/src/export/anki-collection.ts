/**
 * The legacy Anki collection (`collection.anki2`, schema version 11): its DDL
 * and the JSON kept in `col` for note types, decks and option groups, as Anki's
 * rslib/src/notetype/schema11.rs, decks/schema11.rs and deckconfig/schema11.rs read them.
 */
import { ankiDefaultDeckConfig } from "../import/anki/deck-configs";
import type { AnkiDeckConfigSpec, AnkiNoteTypeSpec } from "./anki-package";

/** Anki's Default option group (id 1), at the defaults of rslib's DeckConfig::default(). */
export { ankiDefaultDeckConfig };

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

const latexPre =
  "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Anki 2.0's card requirements (`req`), kept for older clients: each template needs
 * any of the fields its front names. Anki 2.1.28+ works this out itself and ignores it.
 */
function requirements(type: AnkiNoteTypeSpec): [number, "any" | "none", number[]][] {
  return type.templates.map((template, ord) => {
    const used = type.fields
      .map((name, index) => ({ name, index }))
      .filter(({ name }) => new RegExp(`\\{\\{[^}]*?\\b${escapeRegExp(name)}\\}\\}`).test(template.front))
      .map(({ index }) => index);
    return [ord, used.length > 0 ? "any" : "none", used];
  });
}

export function noteTypeJson(type: AnkiNoteTypeSpec, deckId: number, mod: number) {
  const cloze = type.kind === "cloze";
  return {
    id: type.id,
    name: type.name,
    type: cloze ? 1 : 0,
    mod,
    usn: -1,
    sortf: 0,
    did: deckId,
    tmpls: type.templates.map((template, ord) => ({
      name: template.name,
      ord,
      qfmt: template.front,
      afmt: template.back,
      bqfmt: "",
      bafmt: "",
      did: null,
      bfont: "",
      bsize: 0,
    })),
    flds: type.fields.map((name, ord) => {
      const tag = type.fieldTags?.[ord];
      return {
        name,
        ord,
        sticky: false,
        rtl: false,
        font: "Arial",
        size: 20,
        description: "",
        plainText: false,
        collapsed: false,
        excludeFromSearch: false,
        ...(tag ? { tag: tag.tag, preventDeletion: tag.preventDeletion } : {}),
        media: [],
      };
    }),
    css: type.css,
    latexPre,
    latexPost: "\\end{document}",
    latexsvg: false,
    ...(cloze ? {} : { req: requirements(type) }),
    ...(type.originalStockKind ? { originalStockKind: type.originalStockKind } : {}),
    tags: [],
    vers: [],
  };
}

export function deckJson(id: number, name: string, configId: number, mod: number) {
  return {
    id,
    name,
    mod,
    usn: -1,
    desc: "",
    dyn: 0,
    conf: configId,
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

/**
 * One option group in `dconf`, every key rslib's DeckConfSchema11 reads (it refuses
 * a group missing one it requires), at Anki's defaults apart from what Engram keeps.
 */
export function deckConfigJson(config: AnkiDeckConfigSpec, mod: number) {
  return {
    id: config.id,
    mod,
    name: config.name,
    usn: -1,
    maxTaken: 60,
    autoplay: true,
    timer: 0,
    replayq: true,
    new: {
      bury: config.buryNew,
      delays: [1, 10],
      initialFactor: 2500,
      ints: [1, 4, 0],
      order: 1,
      perDay: config.newPerDay,
    },
    rev: {
      bury: config.buryReviews,
      ease4: 1.3,
      ivlFct: 1,
      maxIvl: 36500,
      perDay: config.reviewsPerDay,
      hardFactor: 1.2,
    },
    lapse: {
      delays: [10],
      leechAction: config.leechAction === "suspend" ? 0 : 1,
      leechFails: config.leechThreshold,
      minInt: 1,
      mult: 0,
    },
    dyn: false,
    newMix: 0,
    newPerDayMinimum: 0,
    interdayLearningMix: 0,
    reviewOrder: 0,
    newSortOrder: 0,
    newGatherPriority: 0,
    buryInterdayLearning: config.buryInterdayLearning,
    fsrsWeights: [],
    fsrsParams5: [],
    fsrsParams6: [],
    desiredRetention: 0.9,
    ignoreRevlogsBeforeDate: "",
    easyDaysPercentages: [1, 1, 1, 1, 1, 1, 1],
    stopTimerOnAnswer: false,
    secondsToShowQuestion: 0,
    secondsToShowAnswer: 0,
    questionAction: 0,
    answerAction: 0,
    waitForAudio: true,
    sm2Retention: 0.9,
    weightSearch: "",
  };
}

export function conf(deckId: number, noteTypeId: number, schedulerVersion: number) {
  return {
    activeDecks: [deckId],
    curDeck: deckId,
    newSpread: 0,
    collapseTime: 1200,
    timeLim: 0,
    estTimes: true,
    dueCounts: true,
    curModel: String(noteTypeId),
    nextPos: 1,
    sortType: "noteFld",
    sortBackwards: false,
    addToCur: true,
    schedVer: schedulerVersion,
  };
}
