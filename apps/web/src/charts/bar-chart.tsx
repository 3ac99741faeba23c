/**
 * A bar chart drawn as plain SVG: one bar per category, its series stacked or
 * side by side, a value axis counting from zero in round steps over a dashed
 * grid, and the category labels that fit along the bottom. To assistive
 * technology it is one image named by `label` (the figures are in a table
 * beside it); to the eye, the category under the pointer, or chosen with the
 * arrow keys once the chart has focus, gets a band behind it and a card with
 * its figures.
 */
import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { chartHeight } from "./chart-parts.js";
import { niceTicks, visibleTicks } from "./scale.js";
import { textWidth } from "./text-width.js";
import { useWidth } from "./use-width.js";

export interface BarSeries<T> {
  name: string;
  /** A CSS colour, usually a variable that follows the theme. */
  color: string;
  value: (datum: T) => number;
}

export interface BarChartProps<T> {
  /** What the chart shows, in a sentence or two: its accessible name. */
  label: string;
  data: readonly T[];
  series: readonly BarSeries<T>[];
  /** One bar per category with the series on top of each other, or a bar per series side by side. */
  layout?: "stacked" | "grouped";
  /** The share of each category's width left empty on either side of its bars. */
  categoryGap?: number;
  /** Pixels between side-by-side bars. */
  barGap?: number;
  /** A category's name along the bottom. */
  categoryLabel: (datum: T, index: number) => string;
  /** The least room in pixels between two category labels; the crowded ones are left out. */
  minLabelGap?: number;
  /** A tick on the value axis, e.g. "45 s". */
  valueLabel?: (value: number) => string;
  /** Whether the value axis may step by fractions (time in minutes) or counts in whole numbers. */
  decimals?: boolean;
  /** The card of figures for one category. */
  tooltip: (datum: T) => ReactNode;
}

const margin = { top: 8, right: 8 };
/** Room for the category labels under the bars. */
const labelBand = 30;
/** The value axis' least width; it grows to fit wider labels. */
const minAxisWidth = 48;
/** Between a label and the axis it names. */
const labelOffset = 8;
const fontSize = 12;
/** The tooltip keeps this far from the point it describes. */
const tooltipOffset = 10;
const wholeNumber = new Intl.NumberFormat();

interface Active {
  index: number;
  /** The point the card is placed beside, in the chart's pixels. */
  x: number;
  y: number;
  by: "mouse" | "touch" | "keyboard";
}

export function BarChart<T>({
  label,
  data,
  series,
  layout = "stacked",
  categoryGap = 0.15,
  barGap = 2,
  categoryLabel,
  minLabelGap = 24,
  valueLabel = (value) => wholeNumber.format(value),
  decimals = false,
  tooltip,
}: BarChartProps<T>) {
  const box = useRef<HTMLDivElement>(null);
  const card = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const [active, setActive] = useState<Active | null>(null);

  const geometry = useMemo(() => {
    if (width === 0 || !box.current) return null;
    const font = `${fontSize}px ${getComputedStyle(box.current).fontFamily}`;
    const peak = Math.max(
      0,
      ...data.map((datum) =>
        layout === "stacked"
          ? series.reduce((sum, item) => sum + item.value(datum), 0)
          : Math.max(0, ...series.map((item) => item.value(datum))),
      ),
    );
    const ticks = niceTicks(peak, { decimals });
    const ceiling = ticks[ticks.length - 1] as number;
    const tickLabels = ticks.map(valueLabel);
    const left = Math.max(minAxisWidth, Math.ceil(Math.max(...tickLabels.map((text) => textWidth(text, font)))) + 12);
    const right = Math.max(left + 1, width - margin.right);
    const top = margin.top;
    const bottom = chartHeight - labelBand;
    const band = (right - left) / Math.max(1, data.length);
    const yOf = (value: number) => bottom - (value / ceiling) * (bottom - top);
    const gap = band * categoryGap;
    const barWidth =
      layout === "stacked"
        ? band - 2 * gap
        : Math.max(0, (band - 2 * gap - (series.length - 1) * barGap) / Math.max(1, series.length));
    const bars = data.map((datum, index) => {
      const start = left + index * band + gap;
      let base = 0;
      return series.map((item, position) => {
        const value = Math.max(0, item.value(datum));
        const from = layout === "stacked" ? base : 0;
        base += value;
        const x = layout === "stacked" ? start : start + position * (barWidth + barGap);
        return { key: item.name, color: item.color, x, y: yOf(from + value), height: yOf(from) - yOf(from + value) };
      });
    });
    const categories = data.map((datum, index) => {
      const text = categoryLabel(datum, index);
      return { text, center: left + (index + 0.5) * band, width: textWidth(text, font) };
    });
    const shown = visibleTicks(categories, minLabelGap).map(
      (index) => categories[index] as (typeof categories)[number],
    );
    return { ticks, tickLabels, left, right, top, bottom, band, yOf, barWidth, bars, shown };
  }, [width, data, series, layout, categoryGap, barGap, categoryLabel, minLabelGap, valueLabel, decimals]);

  // The card goes beside its point and turns back when it would leave the chart.
  useLayoutEffect(() => {
    const element = card.current;
    if (!active || !element) return;
    let x = active.x + tooltipOffset;
    if (x + element.offsetWidth > width) x = Math.max(0, active.x - tooltipOffset - element.offsetWidth);
    let y = active.y + tooltipOffset;
    if (y + element.offsetHeight > chartHeight) y = Math.max(0, active.y - tooltipOffset - element.offsetHeight);
    element.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }, [active, width]);

  // A tap shows a card until the next tap elsewhere (a finger leaves no pointer behind to follow).
  useEffect(() => {
    if (active?.by !== "touch") return;
    const dismiss = (event: globalThis.PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setActive(null);
    };
    document.addEventListener("pointerdown", dismiss);
    return () => document.removeEventListener("pointerdown", dismiss);
  }, [active?.by]);

  /** The category's bars' top, where a card chosen from the keyboard points. */
  const keyboardPoint = (index: number): Active => {
    const bars = geometry?.bars[index] ?? [];
    const y = Math.min(geometry?.bottom ?? 0, ...bars.map((bar) => bar.y));
    return { index, x: (geometry?.left ?? 0) + (index + 0.5) * (geometry?.band ?? 0), y, by: "keyboard" };
  };
  /** The latest category with anything to show, where reading from the keyboard starts. */
  const firstChoice = () => {
    for (let index = data.length - 1; index >= 0; index -= 1) {
      if (geometry?.bars[index]?.some((bar) => bar.height > 0)) return index;
    }
    return data.length - 1;
  };

  const onPointer = (event: PointerEvent<SVGSVGElement>) => {
    if (!geometry) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const inside = x >= geometry.left && x <= geometry.right && y >= geometry.top && y <= geometry.bottom;
    if (!inside) {
      if (active?.by !== "keyboard") setActive(null);
      return;
    }
    const index = Math.min(data.length - 1, Math.floor((x - geometry.left) / geometry.band));
    setActive({ index, x, y, by: event.pointerType === "touch" ? "touch" : "mouse" });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = active?.index ?? firstChoice();
    const last = data.length - 1;
    const next =
      event.key === "ArrowLeft"
        ? Math.max(0, current - 1)
        : event.key === "ArrowRight"
          ? Math.min(last, current + 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : undefined;
    if (event.key === "Escape" && active) {
      event.preventDefault();
      setActive(null);
      return;
    }
    if (next === undefined) return;
    event.preventDefault();
    setActive(keyboardPoint(next));
  };

  const shown = active ? data[active.index] : undefined;
  return (
    <div
      ref={box}
      className="chart"
      role="img"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: one tab stop, the chart itself; its arrow keys show each category's figures, as the pointer does
      tabIndex={0}
      style={{ height: chartHeight }}
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        if (event.target === event.currentTarget && event.currentTarget.matches(":focus-visible")) {
          setActive(keyboardPoint(firstChoice()));
        }
      }}
      onBlur={() => setActive((current) => (current?.by === "keyboard" ? null : current))}
    >
      {geometry ? (
        <svg
          className="chart-svg"
          width={width}
          height={chartHeight}
          aria-hidden="true"
          focusable="false"
          onPointerMove={onPointer}
          onPointerDown={onPointer}
          onPointerLeave={(event) => {
            if (event.pointerType !== "touch") setActive((current) => (current?.by === "mouse" ? null : current));
          }}
        >
          <g className="chart-grid">
            {geometry.ticks.map((tick) => (
              <line key={tick} x1={geometry.left} x2={geometry.right} y1={geometry.yOf(tick)} y2={geometry.yOf(tick)} />
            ))}
          </g>
          {active ? (
            <rect
              className="chart-cursor"
              x={geometry.left + active.index * geometry.band}
              y={geometry.top}
              width={geometry.band}
              height={geometry.bottom - geometry.top}
            />
          ) : null}
          <g>
            {geometry.bars.flatMap((bars, index) =>
              bars
                .filter((bar) => bar.height > 0)
                .map((bar) => (
                  <rect
                    // biome-ignore lint/suspicious/noArrayIndexKey: categories keep their places; the index is the category
                    key={`${index}-${bar.key}`}
                    className="chart-bar"
                    x={bar.x}
                    y={bar.y}
                    width={geometry.barWidth}
                    height={bar.height}
                    style={{ fill: bar.color }}
                  />
                )),
            )}
          </g>
          <line
            className="chart-axis"
            x1={geometry.left}
            x2={geometry.right}
            y1={geometry.bottom}
            y2={geometry.bottom}
          />
          <g className="chart-labels" fontSize={fontSize}>
            {geometry.ticks.map((tick, index) => (
              <text key={tick} x={geometry.left - labelOffset} y={geometry.yOf(tick)} dy="0.355em" textAnchor="end">
                {geometry.tickLabels[index]}
              </text>
            ))}
            {geometry.shown.map((category) => (
              <text
                key={category.center}
                x={Math.min(width - category.width / 2, Math.max(category.width / 2, category.center))}
                y={geometry.bottom + labelOffset}
                dy="0.71em"
                textAnchor="middle"
              >
                {category.text}
              </text>
            ))}
          </g>
        </svg>
      ) : null}
      {shown !== undefined ? (
        <div ref={card} className="chart-tooltip">
          {tooltip(shown)}
        </div>
      ) : null}
    </div>
  );
}
