import { BarChart, type BarSeries } from "../../charts/bar-chart.js";
import { Legend, TooltipCard } from "../../charts/chart-parts.js";
import { formatCount, percent } from "../../lib/stats-format.js";
import { ChartSection } from "./chart-section.js";
import { buttonColors } from "./colors.js";
import { type Period, periodPhrases, periodSpans } from "./stats-params.js";
import type { ReviewStats } from "./stats-types.js";

const buttons = ["again", "hard", "good", "easy"] as const;
const buttonLabels = { again: "Again", hard: "Hard", good: "Good", easy: "Easy" } as const;
const groups = ["learning", "young", "mature"] as const;
const groupLabels = { learning: "Learning", young: "Young", mature: "Mature" } as const;

type Group = { group: string; total: number; correct: string | null } & Record<(typeof buttons)[number], number>;

const series: BarSeries<Group>[] = buttons.map((button) => ({
  name: buttonLabels[button],
  color: buttonColors[button],
  value: (group) => group[button],
}));
/** A group's name along the bottom, with its share answered correctly. */
const groupLabel = (group: Group) => (group.correct ? `${group.group} · ${group.correct}` : group.group);

/** How often each answer button was pressed, for learning, young and mature cards, and the share answered correctly. */
export function AnswerButtons({ reviews, period }: { reviews: ReviewStats; period: Period }) {
  const data: Group[] = groups.map((group) => {
    const [again, hard, good, easy] = reviews.buttons[group];
    const total = again + hard + good + easy;
    return { group: groupLabels[group], again, hard, good, easy, total, correct: percent(total - again, total) };
  });
  const span = periodSpans[period];
  const answered = data.filter((group) => group.total > 0);
  const summary =
    answered.length === 0
      ? `No answers ${periodPhrases[period]}.`
      : `Correct: ${answered.map((group) => `${group.group.toLowerCase()} ${group.correct}`).join(", ")} (${span}).`;

  return (
    <ChartSection
      id="buttons"
      title="Answer buttons"
      summary={summary}
      table={
        <table className="stats-table">
          <caption>Answer buttons pressed, {span}</caption>
          <thead>
            <tr>
              <th scope="col">Cards</th>
              {buttons.map((button) => (
                <th key={button} scope="col">
                  {buttonLabels[button]}
                </th>
              ))}
              <th scope="col">Correct</th>
            </tr>
          </thead>
          <tbody>
            {data.map((group) => (
              <tr key={group.group}>
                <th scope="row">{group.group}</th>
                {buttons.map((button) => (
                  <td key={button}>{formatCount(group[button])}</td>
                ))}
                <td>{group.correct ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <BarChart
        label={`Grouped bar chart of answer buttons pressed for learning, young and mature cards. ${data
          .map((group) => `${group.group}: ${buttons.map((button) => `${group[button]} ${button}`).join(", ")}`)
          .join("; ")}.`}
        data={data}
        series={series}
        layout="grouped"
        categoryGap={0.18}
        barGap={2}
        categoryLabel={groupLabel}
        tooltip={(group) => (
          <TooltipCard
            title={`${group.group}: ${group.correct ?? "—"} correct`}
            rows={buttons.map((button) => ({
              name: buttonLabels[button],
              value: `${group[button]} (${percent(group[button], group.total) ?? "—"})`,
              color: buttonColors[button],
            }))}
          />
        )}
      />
      <Legend items={buttons.map((button) => ({ name: buttonLabels[button], color: buttonColors[button] }))} />
    </ChartSection>
  );
}
