/**
 * The screen's colours, defined in stats.css from the design tokens with
 * light-dark(): card states as the study screen counts them (new blue,
 * learning red, review green) and the answer buttons as the study screen
 * colours them.
 */
export const stateColors = {
  new: "var(--stat-new)",
  learning: "var(--stat-learning)",
  relearning: "var(--stat-relearning)",
  review: "var(--stat-review)",
  suspended: "var(--stat-suspended)",
} as const;

export const buttonColors = {
  again: "var(--stat-again)",
  hard: "var(--stat-hard)",
  good: "var(--stat-good)",
  easy: "var(--stat-easy)",
} as const;

export const timeColor = "var(--accent)";
export const forecastColor = "var(--stat-review)";
