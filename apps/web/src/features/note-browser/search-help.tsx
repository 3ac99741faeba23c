/** The main forms of Anki's search syntax, in a popover beside the search box. */
import "./search-help.css";

const forms: readonly [string, string][] = [
  ["mito", "Text anywhere in a note, ignoring case and formatting"],
  ["mito*   d_g", "* any run of characters, _ any one character"],
  ['"a phrase"', "Words together, in this order"],
  ["-word", "Notes without it"],
  ["a or b   (a or b) c", "Either one; brackets group"],
  ["front:dog   front:*dog*", "A whole field (or anywhere in it, with *)"],
  ["tag:spanish", "The tag and the tags under it (spanish::verbs)"],
  ["deck:Biology", "The deck and its subdecks (Biology::Cells)"],
  ["note:Cloze   card:2", "A note type; the second card of a note"],
  ["is:due   is:new   is:suspended", "Your cards' state (also learn, review, buried)"],
  ["flag:1", "Your red flag (0 is no flag, up to 7)"],
  ["prop:ivl>10   prop:due<3", "Interval, due in days (also reps, lapses, s, d, r)"],
  ["rated:7   added:30   edited:7", "Answered, added or edited in the last days"],
  ["re:colou?r   w:dog", "A regular expression; a whole word"],
];

export function SearchHelp() {
  return (
    <>
      <button type="button" className="search-help-toggle" popoverTarget="search-help">
        Search syntax
      </button>
      {/* Focusable, so the keyboard can scroll it when it is taller than the window. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus to be scrolled. */}
      <div id="search-help" popover="auto" className="search-help" tabIndex={0}>
        <table>
          <caption>Search syntax, as in Anki</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Finds</th>
            </tr>
          </thead>
          <tbody>
            {forms.map(([example, meaning]) => (
              <tr key={example}>
                <td>
                  <code>{example}</code>
                </td>
                <td>{meaning}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
