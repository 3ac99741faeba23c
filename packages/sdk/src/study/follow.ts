/**
 * Keeps an open review session in line with schedule changes made on the
 * user's other devices (or tabs): a card suspended or buried there leaves the
 * session here within about a second. The user's own topic names the cards
 * whose schedules changed; their schedules are then read back through RLS.
 * A card unsuspended elsewhere is not added: the session's cards were chosen
 * when it started.
 */
import { toEngramError } from "../errors.js";
import type { ResyncEvent, SubscriptionOptions, Unsubscribe } from "../realtime/changes.js";
import { createSubscriptions, type OwnScheduleEvent } from "../realtime/subscriptions.js";
import { run } from "../request.js";
import type { EngramClient } from "../supabase-client.js";
import type { HeldSchedule, ReviewSession } from "./session.js";

/** Ids per read: a long `in.(…)` list must stay well within a request line's size. */
const readChunk = 100;

/** Which cards to check next: some by id, or every card of the session (after a reconnect). */
type Wanted = Set<string> | "all";

async function readSchedules(supabase: EngramClient, cardIds: readonly string[]): Promise<HeldSchedule[]> {
  const rows: HeldSchedule[] = [];
  for (let from = 0; from < cardIds.length; from += readChunk) {
    const chunk = cardIds.slice(from, from + readChunk);
    rows.push(
      ...(await run(supabase.from("card_states").select("card_id, suspended, buried_until").in("card_id", chunk))),
    );
  }
  return rows;
}

/**
 * Follows the user's schedule changes for `session`: cards of it suspended or
 * buried elsewhere leave it (a `left-elsewhere` event names them). Everything
 * is checked once the subscription is live and again after each reconnect.
 * Returns the function that stops following; close the session after it.
 */
export function followSchedules(
  supabase: EngramClient,
  session: ReviewSession,
  options: SubscriptionOptions = {},
): Unsubscribe {
  let stopped = false;
  let reading = false;
  let wanted: Wanted | null = null;

  const readAll = async (): Promise<void> => {
    reading = true;
    try {
      while (wanted !== null && !stopped) {
        const asked: Wanted = wanted;
        wanted = null;
        const inSession = session.cardIds();
        const ids = asked === "all" ? inSession : inSession.filter((id) => asked.has(id));
        if (ids.length === 0) continue;
        // Taken before the read: a card taken out or put back meanwhile keeps what the user did here.
        const marks = session.localChangeMarks(ids);
        const schedules = await readSchedules(supabase, ids);
        if (!stopped) session.leaveElsewhere(schedules, marks);
      }
    } catch (error) {
      if (!stopped) options.onError?.(toEngramError(error));
    } finally {
      reading = false;
    }
  };

  const check = (ids: readonly string[] | null) => {
    if (ids === null || wanted === "all") wanted = "all";
    else {
      wanted ??= new Set();
      for (const id of ids) wanted.add(id);
    }
    if (!reading) void readAll();
  };

  const stop = createSubscriptions(supabase).onOwnSchedule(
    (event: OwnScheduleEvent | ResyncEvent) => {
      if (event.type === "resync") check(null);
      else if (event.table === "card_states") check(event.ids);
    },
    {
      onError: (error) => options.onError?.(error),
      onReady: () => {
        // Changes made between loading the cards and joining the topic were not announced here.
        check(null);
        options.onReady?.();
      },
    },
  );
  return async () => {
    stopped = true;
    await stop();
  };
}

/**
 * The study sub-client's one synchronous member, kept apart so `createEngram`
 * builds it at once while the rest of `study` loads with its first call.
 */
export function createScheduleFollowing(supabase: EngramClient) {
  return {
    /**
     * Takes cards out of an open session when they are suspended or buried on
     * another device or tab (a `left-elsewhere` session event names them);
     * cards unsuspended there are not added. Returns the function that stops
     * following. `onReady` says changes from now on are followed.
     */
    followSchedules(session: ReviewSession, options: SubscriptionOptions = {}): Unsubscribe {
      return followSchedules(supabase, session, options);
    },
  };
}
