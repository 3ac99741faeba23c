/**
 * What a desired retention costs, estimated from FSRS's forgetting curve: a
 * card is shown again when its recall probability falls to the retention
 * asked for, so the gap between reviews (for the same memory stability) is
 * I(R) ∝ R^(-1/decay) − 1. Reviews a day scale with 1 / I(R); more forgetting
 * at low retention adds relearning this leaves out, so it is an estimate.
 */

/** FSRS-6's default decay (ts-fsrs `FSRS6_DEFAULT_DECAY`), used until the optimiser trains the user's own. */
const defaultDecay = 0.1542;

function gap(retention: number, decay: number): number {
  return retention ** (-1 / decay) - 1;
}

export interface Workload {
  /** About one card in this many is forgotten when it comes due. */
  forgetOneIn: number;
  /** Reviews a day compared with the default retention of 0.90. */
  relativeToDefault: number;
}

export function workloadOf(retention: number, fsrsParams: number[] | null): Workload {
  const decay = fsrsParams?.[20] ?? defaultDecay;
  return {
    forgetOneIn: Math.round(1 / (1 - retention)),
    relativeToDefault: gap(0.9, decay) / gap(retention, decay),
  };
}

const times = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });

/** The trade in words, for the retention field's explanation. */
export function describeWorkload(retention: number, fsrsParams: number[] | null): string {
  const { forgetOneIn, relativeToDefault } = workloadOf(retention, fsrsParams);
  const forgetting = `At ${retention.toFixed(2)} you forget about 1 card in ${forgetOneIn} when it comes due.`;
  if (relativeToDefault >= 1.05) {
    return `${forgetting} Cards come back sooner: about ${times.format(relativeToDefault)} times the reviews a day you would have at 0.90.`;
  }
  if (relativeToDefault <= 0.95) {
    return `${forgetting} Cards come back later: about ${percent.format(1 - relativeToDefault)} fewer reviews a day than at 0.90, but more of them forgotten.`;
  }
  return `${forgetting} That is the default balance between reviews a day and cards forgotten.`;
}
