/**
 * A ring of slices, one per share, as plain SVG: from three o'clock,
 * anticlockwise, each slice outlined in the page's background so
 * neighbours stay apart. It draws at its box's size (the box is square);
 * whatever names it is the caller's.
 */

export interface DonutSlice {
  key: string;
  value: number;
  /** A CSS colour, usually a variable that follows the theme. */
  color: string;
}

/** The drawing's own units: a 160 square with a 5 margin, the ring's hole 62% of its radius. */
const size = 160;
const centre = size / 2;
const outer = centre - 5;
const inner = outer * 0.62;

const point = (radius: number, degrees: number) => {
  const radians = (degrees * Math.PI) / 180;
  return `${(centre + radius * Math.cos(radians)).toFixed(3)} ${(centre - radius * Math.sin(radians)).toFixed(3)}`;
};

/** A slice of the ring between two angles (degrees, anticlockwise from three o'clock). */
function slicePath(from: number, to: number): string {
  if (to - from >= 359.999) {
    // A whole ring: two half circles outside and two inside, the inner ones cut out by the even-odd rule.
    return [
      `M ${point(outer, 0)} A ${outer} ${outer} 0 1 0 ${point(outer, 180)} A ${outer} ${outer} 0 1 0 ${point(outer, 0)} Z`,
      `M ${point(inner, 0)} A ${inner} ${inner} 0 1 0 ${point(inner, 180)} A ${inner} ${inner} 0 1 0 ${point(inner, 0)} Z`,
    ].join(" ");
  }
  const large = to - from > 180 ? 1 : 0;
  return [
    `M ${point(outer, from)}`,
    `A ${outer} ${outer} 0 ${large} 0 ${point(outer, to)}`,
    `L ${point(inner, to)}`,
    `A ${inner} ${inner} 0 ${large} 1 ${point(inner, from)}`,
    "Z",
  ].join(" ");
}

/** Slices in proportion to their values; zero ones are left out (an empty slice would still show its outline). */
export function DonutChart({ slices }: { slices: readonly DonutSlice[] }) {
  const total = slices.reduce((sum, slice) => sum + Math.max(0, slice.value), 0);
  let angle = 0;
  return (
    <svg className="donut-svg" viewBox={`0 0 ${size} ${size}`} aria-hidden="true" focusable="false">
      {slices
        .filter((slice) => slice.value > 0)
        .map((slice) => {
          const from = angle;
          angle += (slice.value / total) * 360;
          return (
            <path
              key={slice.key}
              d={slicePath(from, angle)}
              fillRule="evenodd"
              style={{ fill: slice.color, stroke: "var(--bg)" }}
              strokeWidth={2}
            />
          );
        })}
    </svg>
  );
}
