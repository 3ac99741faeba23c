import { useId } from "react";
import type { ColumnMapping, CsvOptions, CsvPreview } from "../../transfer/transfer-protocol.js";

const delimiters = [
  { value: "\t", label: "Tab" },
  { value: ",", label: "Comma" },
  { value: ";", label: "Semicolon" },
  { value: "|", label: "Vertical bar" },
] as const;

const fixedKinds = [
  { value: "basic", label: "Basic, every row" },
  { value: "basic_reversed", label: "Basic and reversed, every row" },
  { value: "cloze", label: "Cloze, every row" },
  { value: "type_in", label: "Basic (type in the answer), every row" },
] as const;

type Role = "front" | "back" | "tags";

/** Front and back also stand for a cloze note's text and extra, as the mapping reads them. */
const columnOf = (mapping: ColumnMapping, role: Role): number | undefined =>
  role === "front" ? (mapping.front ?? mapping.text) : role === "back" ? (mapping.back ?? mapping.extra) : mapping.tags;

function withColumn(mapping: ColumnMapping, role: Role, column: number | undefined): ColumnMapping {
  const next: ColumnMapping = { ...mapping };
  if (role === "front") delete next.text;
  if (role === "back") delete next.extra;
  if (column === undefined) delete next[role];
  else next[role] = column;
  return next;
}

/**
 * Which column is which: the file's first rows as a table, a choice per role,
 * whether the first row names the columns, and what separates them.
 */
export function CsvMapping({
  preview,
  mapping,
  onMapping,
  onOptions,
  frontError,
}: {
  preview: CsvPreview;
  mapping: ColumnMapping;
  onMapping: (mapping: ColumnMapping) => void;
  onOptions: (options: CsvOptions) => void;
  frontError: string | undefined;
}) {
  const id = useId();
  const columnChoices = preview.columns.map((name, column) => ({ value: String(column), label: name }));
  // Sample rows have no identity of their own; their place in the file is their key.
  const sample = preview.sampleRows.map((cells, row) => ({ key: `row-${row}`, cells }));
  const roleSelect = (role: Role, label: string, required = false) => {
    const selectId = `${id}-${role}`;
    const error = role === "front" ? frontError : undefined;
    return (
      <div className="import-field">
        <label htmlFor={selectId}>{label}</label>
        <select
          id={selectId}
          data-field={role}
          value={columnOf(mapping, role)?.toString() ?? ""}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${selectId}-error` : undefined}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onMapping(withColumn(mapping, role, value === "" ? undefined : Number(value)));
          }}
        >
          <option value="">{required ? "Choose a column" : "None"}</option>
          {columnChoices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        {error ? (
          <p id={`${selectId}-error`} className="field-error">
            {error}
          </p>
        ) : null}
      </div>
    );
  };
  const kindValue =
    typeof mapping.kind === "number" ? `column:${mapping.kind}` : mapping.kind ? `kind:${mapping.kind}` : "";

  return (
    <section className="import-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Match the columns</h2>
      <p className="field-hint">Choose the column for each part of a note; the file's first rows are shown below.</p>
      <div className="import-csv-options">
        <div className="import-field">
          <label htmlFor={`${id}-delimiter`}>Columns separated by</label>
          <select
            id={`${id}-delimiter`}
            value={preview.delimiter}
            onChange={(event) => onOptions({ delimiter: event.currentTarget.value, hasHeader: preview.hasHeader })}
          >
            {delimiters.map((delimiter) => (
              <option key={delimiter.label} value={delimiter.value}>
                {delimiter.label}
              </option>
            ))}
          </select>
        </div>
        <label className="import-check">
          <input
            type="checkbox"
            checked={preview.hasHeader}
            onChange={(event) => onOptions({ delimiter: preview.delimiter, hasHeader: event.currentTarget.checked })}
          />
          First row is a header
        </label>
      </div>
      <div className="import-roles">
        {roleSelect("front", "Front (or cloze text)", true)}
        {roleSelect("back", "Back (or extra)")}
        {roleSelect("tags", "Tags")}
        <div className="import-field">
          <label htmlFor={`${id}-kind`}>Kind</label>
          <select
            id={`${id}-kind`}
            value={kindValue}
            onChange={(event) => {
              const [source, value = ""] = event.currentTarget.value.split(":");
              const next: ColumnMapping = { ...mapping };
              if (source === "column") next.kind = Number(value);
              else if (source === "kind") next.kind = value as (typeof fixedKinds)[number]["value"];
              else delete next.kind;
              onMapping(next);
            }}
          >
            <option value="">Found from the front (cloze or basic)</option>
            {fixedKinds.map((kind) => (
              <option key={kind.value} value={`kind:${kind.value}`}>
                {kind.label}
              </option>
            ))}
            {columnChoices.map((choice) => (
              <option key={choice.value} value={`column:${choice.value}`}>
                Column: {choice.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="import-table-scroll">
        <table className="import-table">
          <caption className="visually-hidden">The file's first rows</caption>
          <thead>
            <tr>
              {columnChoices.map((choice) => (
                <th key={choice.value} scope="col">
                  {choice.label}
                  <span className="import-role-badge">{roleOf(mapping, Number(choice.value))}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sample.map(({ key, cells }) => (
              <tr key={key}>
                {columnChoices.map((choice) => (
                  <td key={choice.value}>{cells[Number(choice.value)] ?? ""}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function roleOf(mapping: ColumnMapping, column: number): string {
  if (columnOf(mapping, "front") === column) return "Front";
  if (columnOf(mapping, "back") === column) return "Back";
  if (mapping.tags === column) return "Tags";
  if (mapping.kind === column) return "Kind";
  return "Not used";
}
