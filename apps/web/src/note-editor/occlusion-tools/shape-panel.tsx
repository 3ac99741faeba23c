/**
 * The selected shape's settings: how far it is turned, and for a label its
 * text and size. Numbers take effect as they are typed, once they are numbers;
 * Enter stays in the field rather than saving the note.
 */
import type { OcclusionShape } from "@engram/core";
import { type KeyboardEvent, type RefObject, useId } from "react";

const keepEnter = (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key === "Enter") event.preventDefault();
};

function NumberField({
  label,
  value,
  step,
  min,
  max,
  onValue,
}: {
  label: string;
  value: number;
  step: number;
  min?: number;
  max?: number;
  onValue: (value: number) => void;
}) {
  const id = useId();
  return (
    <div className="occlusion-setting">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        step={step}
        min={min}
        max={max}
        defaultValue={value}
        onKeyDown={keepEnter}
        onChange={(event) => {
          const number = event.target.valueAsNumber;
          if (Number.isFinite(number)) onValue(number);
        }}
      />
    </div>
  );
}

export function ShapePanel({
  shape,
  name,
  textRef,
  onRotate,
  onText,
  onScale,
}: {
  shape: OcclusionShape;
  /** What the shape is called in the list, e.g. "Rectangle 3". */
  name: string;
  textRef: RefObject<HTMLTextAreaElement | null>;
  onRotate: (degrees: number) => void;
  onText: (text: string) => void;
  onScale: (scale: number) => void;
}) {
  const id = useId();
  return (
    <fieldset className="occlusion-shape-panel">
      <legend>{name}</legend>
      {shape.shape === "text" && (
        <>
          <div className="occlusion-setting">
            <label htmlFor={`${id}-text`}>Label text</label>
            <textarea
              ref={textRef}
              id={`${id}-text`}
              rows={2}
              value={shape.text}
              onChange={(event) => onText(event.target.value)}
            />
          </div>
          <NumberField
            label="Label size"
            value={Number(shape.scale.toFixed(2))}
            step={0.1}
            min={0.2}
            max={10}
            onValue={onScale}
          />
        </>
      )}
      <NumberField
        label="Rotation (degrees)"
        value={Number(shape.angle.toFixed(1))}
        step={1}
        min={-360}
        max={360}
        onValue={onRotate}
      />
    </fieldset>
  );
}
