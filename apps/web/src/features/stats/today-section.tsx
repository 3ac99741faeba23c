import { CheckCircle2, Clock, Flame, RotateCcw, Target } from "lucide-react";
import type { ReactNode } from "react";
import { formatCount, formatDuration, percent, plural } from "../../lib/stats-format.js";
import type { ReviewStats, UserStats } from "./stats-types.js";

/** Today in four figures (Anki's "Today"): answers, time, "again" presses and true retention. */
export function TodaySection({ user, reviews }: { user: UserStats; reviews: ReviewStats }) {
  const answers = user.reviewed_today;
  const time = reviews.per_day.find((day) => day.date === reviews.today)?.duration_ms ?? 0;
  const again = user.answers_per_day.find((day) => day.date === user.today)?.again ?? 0;
  const retention = reviews.retention.find((row) => row.period === "today");
  const passed = (retention?.young.passed ?? 0) + (retention?.mature.passed ?? 0);
  const failed = (retention?.young.failed ?? 0) + (retention?.mature.failed ?? 0);
  const rate = percent(passed, passed + failed);

  return (
    <section className="stats-card wide" aria-labelledby="today-title" data-section="today">
      <div className="stats-card-header">
        <h2 id="today-title">Today</h2>
      </div>
      <p className="stats-summary">
        {answers === 0
          ? "No cards studied today yet."
          : `Studied ${plural(answers, "card")} in ${formatDuration(time)} today (${formatDuration(time / answers)} a card).`}
      </p>
      <dl className="today-stats">
        <Figure icon={<CheckCircle2 aria-hidden="true" />} name="Answers" value={formatCount(answers)} />
        <Figure icon={<Clock aria-hidden="true" />} name="Time" value={formatDuration(time)} />
        <Figure
          icon={<RotateCcw aria-hidden="true" />}
          name="Again"
          value={formatCount(again)}
          note={answers > 0 ? `${percent(again, answers)} of answers` : undefined}
        />
        <Figure
          icon={<Target aria-hidden="true" />}
          name="True retention"
          value={rate ?? "—"}
          note={passed + failed > 0 ? `${passed} of ${plural(passed + failed, "review")} passed` : "no reviews yet"}
        />
        <Figure icon={<Flame aria-hidden="true" />} name="Streak" value={plural(user.streak, "day")} />
      </dl>
    </section>
  );
}

function Figure({ icon, name, value, note }: { icon: ReactNode; name: string; value: string; note?: string }) {
  return (
    <div className="today-stat">
      <dt>
        {icon} {name}
      </dt>
      <dd>
        <span className="today-stat-value">{value}</span>
        {note ? <span className="today-stat-note">{note}</span> : null}
      </dd>
    </div>
  );
}
