import type { RealtimeChannel } from "@supabase/supabase-js";
import { expect, test, vi } from "vitest";
import type { SessionEvent } from "../src/auth.js";
import { createEngram, type EngramClient } from "../src/client.js";
import { newAccount, supabaseClient } from "./support/engram.js";

/** A signed-in device of `account` that records its session events. */
async function device(account: { email: string; password: string }) {
  const supabase = supabaseClient();
  const engram = createEngram(supabase);
  await engram.auth.signIn(account);
  const events: SessionEvent[] = [];
  const unsubscribe = engram.auth.onSessionChange((event) => events.push(event));
  await vi.waitFor(() => expect(events).toEqual(["signed-in"]));
  return { supabase, engram, events, unsubscribe };
}

const userChannel = (supabase: EngramClient, userId: string): RealtimeChannel | undefined =>
  supabase.getChannels().find((channel) => channel.topic === `realtime:user:${userId}`);

test("a device watching for it ends its session as soon as another device signs out everywhere", async () => {
  const account = await newAccount("everywhere");
  const laptop = await device(account);
  const stop = laptop.engram.auth.watchSignOutElsewhere();
  await vi.waitFor(() => expect(userChannel(laptop.supabase, account.id)?.state).toBe("joined"));

  const phone = await device(account);
  await phone.engram.auth.signOut({ scope: "global" });

  // No clock moved: the laptop's access token is still young, yet its session ends now.
  await vi.waitFor(() => expect(laptop.events).toEqual(["signed-in", "expired"]));
  expect(await laptop.engram.auth.getSession()).toBeNull();
  expect(phone.events).toEqual(["signed-in", "signed-out"]);
  stop();
});

test("the device that signs out everywhere ends as signed out, not expired, even while it watches too", async () => {
  const account = await newAccount("everywhere");
  const laptop = await device(account);
  const stop = laptop.engram.auth.watchSignOutElsewhere();
  await vi.waitFor(() => expect(userChannel(laptop.supabase, account.id)?.state).toBe("joined"));

  await laptop.engram.auth.signOut({ scope: "global" });
  expect(await laptop.engram.auth.getSession()).toBeNull();
  expect(laptop.events).toEqual(["signed-in", "signed-out"]);
  stop();
});

test("signing out on one device only does not end the user's other sessions", async () => {
  const account = await newAccount("everywhere");
  const laptop = await device(account);
  const stop = laptop.engram.auth.watchSignOutElsewhere();
  await vi.waitFor(() => expect(userChannel(laptop.supabase, account.id)?.state).toBe("joined"));

  const phone = await device(account);
  await phone.engram.auth.signOut();
  expect((await laptop.engram.auth.getUser())?.id).toBe(account.id);
  expect(laptop.events).toEqual(["signed-in"]);
  stop();
  await vi.waitFor(() => expect(userChannel(laptop.supabase, account.id)).toBeUndefined());
});
