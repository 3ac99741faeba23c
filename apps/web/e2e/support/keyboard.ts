/** Moving through a page as a keyboard user does: Tab until the wanted control has the focus. */
import type { Locator, Page } from "playwright-core";

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/**
 * Presses Tab (Shift+Tab with `backwards`, or any `key`, e.g. ArrowRight inside
 * a toolbar) until `target` has the focus; fails if it is not reached within `limit` presses.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  {
    backwards = false,
    key = backwards ? "Shift+Tab" : "Tab",
    limit = 60,
  }: { backwards?: boolean; key?: string; limit?: number } = {},
): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses < limit; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press(key);
  }
  if (await isFocused(target)) return;
  throw new Error(`${target} was not reached with ${limit} presses of ${key}`);
}
