/** The "More" menu: the card actions for touch screens, with their keys beside them for keyboards. */
import { lazy } from "react";
import { DeferredMenu } from "../../ui/deferred-menu.js";
import type { CardActionsProps } from "./card-actions-dropdown.js";

const loadDropdown = () => import("./card-actions-dropdown.js");
const CardActionsDropdown = lazy(() => loadDropdown().then((module) => ({ default: module.CardActionsDropdown })));

export function CardActionsMenu(props: CardActionsProps) {
  return (
    <DeferredMenu
      load={loadDropdown}
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
