/**
 * What a suggestion would change, field by field: a word diff against the note
 * as it is now, and, when the note changed since the suggestion was made, the
 * three states side by side — as the author saw it, as it is now, as suggested.
 */
import type { PendingSuggestion } from "@engram/sdk";
import { fieldText } from "../../lib/field-text.js";
import { fieldNames } from "../../suggestion-form/field-names.js";
import { FieldDiff } from "../../ui/field-diff.js";

const text = (value: string | undefined) => fieldText(value ?? "") || "(empty)";

export function SuggestionFields({ suggestion }: { suggestion: PendingSuggestion }) {
  const { action, kind, fields, current, base, changedSince } = suggestion;
  const names = fieldNames(kind, fields ?? current?.fields);
  if (action === "create") {
    return (
      <dl className="suggestion-fields">
        {names.map(([name, label]) => (
          <div key={name} className="suggestion-field">
            <dt>{label}</dt>
            <dd>
              <FieldDiff before="" after={fields?.[name] ?? ""} />
            </dd>
          </div>
        ))}
        <TagsChange before={[]} after={suggestion.tags ?? []} />
      </dl>
    );
  }
  if (current === null) return <p className="muted">The note was deleted since.</p>;
  if (action === "delete") {
    return (
      <dl className="suggestion-fields">
        {names.map(([name, label]) => (
          <div key={name} className="suggestion-field">
            <dt>{label}</dt>
            <dd>{text(current.fields[name])}</dd>
          </div>
        ))}
      </dl>
    );
  }
  const changed = names.filter(([name]) => (fields?.[name] ?? "") !== (base?.fields[name] ?? ""));
  return (
    <dl className="suggestion-fields">
      {changed.map(([name, label]) => (
        <div key={name} className="suggestion-field">
          <dt>{label}</dt>
          <dd>
            <FieldDiff before={current.fields[name] ?? ""} after={fields?.[name] ?? ""} />
            {changedSince ? (
              <table className="three-way">
                <caption className="visually-hidden">{label}: when suggested, now, and suggested</caption>
                <tbody>
                  <tr>
                    <th scope="row">When suggested</th>
                    <td>{text(base?.fields[name])}</td>
                  </tr>
                  <tr>
                    <th scope="row">Now</th>
                    <td>{text(current.fields[name])}</td>
                  </tr>
                  <tr>
                    <th scope="row">Suggested</th>
                    <td>{text(fields?.[name])}</td>
                  </tr>
                </tbody>
              </table>
            ) : null}
          </dd>
        </div>
      ))}
      <TagsChange before={current.tags} after={suggestion.tags ?? current.tags} />
    </dl>
  );
}

function TagsChange({ before, after }: { before: string[]; after: string[] }) {
  const added = after.filter((tag) => !before.includes(tag));
  const removed = before.filter((tag) => !after.includes(tag));
  if (added.length === 0 && removed.length === 0) return null;
  return (
    <div className="suggestion-field">
      <dt>Tags</dt>
      <dd>
        {added.length > 0 ? <span>Adds {added.join(", ")}. </span> : null}
        {removed.length > 0 ? <span>Removes {removed.join(", ")}.</span> : null}
      </dd>
    </div>
  );
}
