/** The "More" menu: the card actions for touch screens, with their keys beside them for keyboards. */

import { onDemand } from "../../lib/preloadable.js";
import { DeferredMenu } from "../../ui/deferred-menu.js";
import type { CardActionsProps } from "./card-actions-dropdown.js";

const CardActionsDropdown = onDemand(() =>
  import("./card-actions-dropdown.js").then((module) => module.CardActionsDropdown),
);

export function CardActionsMenu(props: CardActionsProps) {
  return (
    <DeferredMenu
      load={CardActionsDropdown.preload}
      trigger={
        <button type="button" className="button secondary small">
          More
        </button>
      }
    >
      {(press, trigger) => <CardActionsDropdown {...props} trigger={trigger} press={press} />}
    </DeferredMenu>
  );
}
