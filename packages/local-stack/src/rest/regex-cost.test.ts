import { describe, expect, it } from "vitest";
import { maxRegexCost, regexCost } from "./regex-cost.js";

describe("regexCost", () => {
  it("lets patterns people write through", () => {
    for (const pattern of [
      "^[a-z]{2,5}$",
      "^([0-9]{1,3}\\.){3}[0-9]{1,3}$",
      "^(a+)+$",
      "(?i)^mito",
      "^[[:alpha:]]+ [^]]*\\d{4}$",
      "^(a|b){255}$",
      "colou?r|grey|gray",
    ]) {
      expect(regexCost(pattern), pattern).toBeLessThan(1_000);
    }
  });

  it("prices nested bounded repetition of optional parts as the compiler pays for it", () => {
    expect(regexCost("^((a|a?){40}){40}$")).toBeGreaterThan(maxRegexCost);
    expect(regexCost("^((a|a?){20}){20}$")).toBeGreaterThan(maxRegexCost);
    expect(regexCost("^(a|a?){255}$")).toBeLessThan(maxRegexCost);
    expect(regexCost("^((a|a?){15}){15}$")).toBeLessThan(maxRegexCost);
  });
});
