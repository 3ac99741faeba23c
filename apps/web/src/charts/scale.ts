/**
 * The arithmetic behind the bar charts' axes: round steps for the value axis
 * and which category labels fit along the bottom. Pure, so it is tested on
 * its own.
 */

/** Ticks on the value axis: always five, from zero. */
const tickCount = 5;

/** Enough significant digits to undo binary fractions (0.1 * 3 → 0.3) without losing a real one. */
const tidy = (value: number) => Number(value.toPrecision(12));

/**
 * A round step for `rough`: its leading digits rounded up to the next 0.1 of
 * the decade (one digit) or 0.05 (any other), so 2.25 → 3, 11.25 → 15 and
 * 6.5 → 7. Whole numbers only, unless `decimals`.
 */
export function roundStep(rough: number, decimals: boolean): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const digits = Math.floor(Math.log10(rough)) + 1;
  const decade = 10 ** digits;
  const grain = digits === 1 ? 0.1 : 0.05;
  const step = tidy(Math.ceil(tidy(rough / decade / grain)) * grain * decade);
  return decimals ? step : Math.max(1, Math.ceil(step));
}

/**
 * The value axis for data peaking at `max`: five evenly spaced ticks from zero
 * whose top reaches `max` (0–7 → 0, 2, 4, 6, 8). An empty chart counts 0 to 4.
 */
export function niceTicks(max: number, { decimals = false }: { decimals?: boolean } = {}): number[] {
  const step = max > 0 ? roundStep(max / (tickCount - 1), decimals) : 1;
  return Array.from({ length: tickCount }, (_, index) => tidy(index * step));
}

/** A category label along the bottom: its centre and its width in pixels. */
export interface TickLabel {
  center: number;
  width: number;
}

/**
 * Which labels to show so none comes closer than `gap` to its neighbour: the
 * first, the last unless it would touch the first, and between them, from the
 * left, each one that fits.
 */
export function visibleTicks(labels: TickLabel[], gap: number): number[] {
  const last = labels.length - 1;
  if (last < 0) return [];
  if (last === 0) return [0];
  const lastLabel = labels[last] as TickLabel;
  const lastStart = lastLabel.center - lastLabel.width / 2;
  const shown = [0];
  let end = (labels[0] as TickLabel).center + (labels[0] as TickLabel).width / 2;
  for (let index = 1; index < last; index += 1) {
    const label = labels[index] as TickLabel;
    const start = label.center - label.width / 2;
    const stop = label.center + label.width / 2;
    if (start >= end + gap && stop + gap <= lastStart) {
      shown.push(index);
      end = stop;
    }
  }
  if (lastStart >= end + gap) shown.push(last);
  return shown;
}
