/** Accessibility: axe-core's WCAG 2.x A and AA rules over the page as it stands. */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

const wcagAA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** The violations, each as "rule: what is wrong (where)", so a failing test says what to fix. */
export async function axeViolations(page: Page): Promise<string[]> {
  // @axe-core/playwright types its page as @playwright/test's; playwright-core's is the same object.
  const results = await new AxeBuilder({ page: page as never }).withTags(wcagAA).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${violation.help} (${node.target.join(" ")})`),
  );
}

/** The violations in the light theme and then the dark one (the app follows the system's scheme). */
export async function axeViolationsInBothThemes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    found.push(...(await axeViolations(page)).map((violation) => `${colorScheme}: ${violation}`));
  }
  return found;
}
