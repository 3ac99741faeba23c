/** A new user's first minute: the sample deck, codes from emails, links opened elsewhere, the name others see. */
import { sampleDeckName, sampleDeckNotes } from "@engram/core";
import { describe, expect, test } from "vitest";
import { createEngram } from "../src/client.js";
import { displayNameChosen } from "../src/profile.js";
import { errorOf, followLink, lastEmail, signedIn, supabaseClient, uniqueEmail } from "./support/engram.js";

const callback = "http://127.0.0.1:3000/auth/callback";
const password = "correct horse";

function pkceEngram() {
  return createEngram(supabaseClient({ auth: { flowType: "pkce" } }));
}

async function emailedCode(email: string): Promise<string> {
  const code = /enter the code: (\d+)/i.exec((await lastEmail(email)).text)?.[1];
  if (!code) throw new Error(`no code in the email to ${email}`);
  return code;
}

describe("the demo account from the seed", () => {
  test("signs in with the password the seed documents and owns its two decks", async () => {
    const supabase = supabaseClient();
    const { error } = await supabase.auth.signInWithPassword({ email: "demo@engram.local", password: "engram-demo" });
    expect(error).toBeNull();
    const names = (await createEngram(supabase).decks.list()).map((deck) => deck.name);
    expect(names).toEqual(expect.arrayContaining(["World capitals", "Common Spanish words"]));
    const wrong = await supabaseClient().auth.signInWithPassword({ email: "demo@engram.local", password: "engram" });
    expect(wrong.error?.code).toBe("invalid_credentials");
  });
});

describe("the sample deck", () => {
  test("is added whole, owned by the user, with every kind of note, and only once", async () => {
    const { engram, account } = await signedIn("sample");
    expect(await engram.sampleDeck.find()).toBeNull();

    const first = await engram.sampleDeck.add();
    expect(first.created).toBe(true);
    const deck = await engram.decks.get(first.deckId);
    expect(deck).toMatchObject({ name: sampleDeckName, owner_id: account.id });

    const page = await engram.notes.list(first.deckId, { limit: 100 });
    expect(page.total).toBe(sampleDeckNotes.length);
    expect(page.total).toBeGreaterThanOrEqual(20);
    const kinds = new Set(page.notes.map((note) => note.kind));
    expect([...kinds].sort()).toEqual(["basic", "basic_reversed", "cloze", "type_in"]);
    const queue = await engram.study.queue({ deckId: first.deckId });
    expect(queue.length).toBeGreaterThan(0);

    const again = await engram.sampleDeck.add();
    expect(again).toEqual({ deckId: first.deckId, created: false });
    expect((await engram.decks.list()).filter((mine) => mine.name === sampleDeckName)).toHaveLength(1);

    // Once deleted, it can be added afresh.
    await engram.decks.remove(first.deckId);
    expect(await engram.sampleDeck.find()).toBeNull();
    const fresh = await engram.sampleDeck.add();
    expect(fresh.created).toBe(true);
    expect(fresh.deckId).not.toBe(first.deckId);
  });

  test("leaves nothing behind when the import cannot start", async () => {
    const { engram, supabase } = await signedIn("sample-refused");
    const { data: host } = await supabase.from("decks").insert({ name: "Host" }).select("id").single();
    // Three running imports are the most a user may have at once.
    for (let index = 0; index < 3; index += 1) {
      const started = await supabase.rpc("start_import", {
        p_job_id: crypto.randomUUID(),
        p_source: "csv",
        p_total: 1,
        p_deck_id: host?.id ?? "",
      });
      expect(started.error).toBeNull();
    }
    const error = await errorOf(engram.sampleDeck.add());
    expect(error.code).toBe("quota-exceeded");
    expect((await engram.decks.list()).map((deck) => deck.name)).toEqual(["Host"]);
    expect(await engram.sampleDeck.find()).toBeNull();
  });
});

describe("codes and links from the sign-up email", () => {
  test("the code from the confirmation email signs in, a wrong one is refused at the code field", async () => {
    const engram = pkceEngram();
    const email = uniqueEmail("code");
    await engram.auth.signUp({ email, password, redirectTo: callback });
    const code = await emailedCode(email);

    const wrong = code === "000000" ? "111111" : "000000";
    const refused = await errorOf(engram.auth.verifyEmailCode({ email, code: wrong }));
    expect(refused).toMatchObject({ code: "validation", field: "code", rule: "code_invalid" });
    expect(await engram.auth.getSession()).toBeNull();
    const malformed = await errorOf(engram.auth.verifyEmailCode({ email, code: "12ab" }));
    expect(malformed).toMatchObject({ code: "validation", field: "code" });

    const session = await engram.auth.verifyEmailCode({ email, code: ` ${code.slice(0, 3)} ${code.slice(3)} ` });
    expect(session.user.email).toBe(email);
    expect(session.user.email_confirmed_at).toBeTruthy();
    // Used once, it is spent.
    const reused = await errorOf(pkceEngram().auth.verifyEmailCode({ email, code }));
    expect(reused).toMatchObject({ code: "validation", field: "code" });
  });

  test("a resent confirmation carries a new code that works", async () => {
    const engram = pkceEngram();
    const email = uniqueEmail("resend");
    await engram.auth.signUp({ email, password, redirectTo: callback });
    const first = await emailedCode(email);
    await engram.auth.resendConfirmation({ email, redirectTo: callback });
    const mail = await lastEmail(email);
    expect(mail.count).toBe(2);
    const second = await emailedCode(email);
    if (second !== first) {
      expect(await errorOf(engram.auth.verifyEmailCode({ email, code: first }))).toMatchObject({ field: "code" });
    }
    expect((await engram.auth.verifyEmailCode({ email, code: second })).user.email).toBe(email);
  });

  test("a confirmation link opened in another browser confirms the account, and says so", async () => {
    const asking = pkceEngram();
    const email = uniqueEmail("elsewhere");
    await asking.auth.signUp({ email, password, redirectTo: callback });
    const landing = await followLink((await lastEmail(email)).link);
    const code = landing.searchParams.get("code") ?? "";
    expect(code).not.toBe("");

    const other = pkceEngram();
    const error = await errorOf(other.auth.exchangeCode(code));
    expect(error).toMatchObject({ code: "auth/link-expired", rule: "code_verifier_missing" });
    expect((await other.auth.signIn({ email, password })).user.email_confirmed_at).toBeTruthy();
  });
});

describe("the name others see", () => {
  test("counts as chosen once it differs from the email's default, or the user confirms it", async () => {
    const { engram, account } = await signedIn("name", {}, { keepDefaults: true });
    const profile = await engram.profile.get();
    const user = (await engram.auth.getUser()) ?? { email: account.email };
    expect(profile.display_name).toBe(account.email.split("@")[0]);
    expect(displayNameChosen(profile, user)).toBe(false);

    // Keeping the default on purpose counts as a choice.
    const kept = await engram.profile.chooseName(profile.display_name);
    const confirmed = await engram.auth.getUser();
    expect(confirmed?.user_metadata.display_name_chosen).toBe(true);
    expect(displayNameChosen(kept, confirmed ?? user)).toBe(true);

    expect(displayNameChosen({ display_name: "Maya Weiss" }, { email: account.email })).toBe(true);
    expect(displayNameChosen({ display_name: "" }, { email: account.email })).toBe(false);
    await expect(engram.profile.chooseName("x".repeat(81))).rejects.toMatchObject({ code: "validation" });
  });
});
