import { useEffect, useState } from "react";

/** "in 3 min", "in 40 s": how long until the next learning card is due, refreshed as time passes. */
function untilLabel(at: Date, now: number): string {
  const seconds = Math.max(0, Math.round((at.getTime() - now) / 1000));
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  return `at ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
}

/** Only learning cards are left and none is due yet: Anki's "come back in a few minutes". */
export function WaitingForLearning({ nextAt, learning }: { nextAt: Date; learning: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <section className="study-state" aria-labelledby="waiting-heading">
      <h2 id="waiting-heading">Next card {untilLabel(nextAt, now)}</h2>
      <p>
        {learning === 1 ? "One card is" : `${learning} cards are`} still in learning and will come back here when due.
        Keep this page open, or come back later.
      </p>
    </section>
  );
}
