import { describe, expect, it } from "vitest";
import { closestMatch } from "./fuzzy.js";

// The cases of PostgREST's noRpcHint doctests.
describe("closestMatch", () => {
  it("finds the function a misspelt name meant", () => {
    expect(closestMatch("testt", ["test", "another"])).toBe("test");
    expect(closestMatch("other", ["test", "another"])).toBe("another");
    expect(closestMatch("noclosealternative", ["test", "another"])).toBeNull();
  });

  it("finds the argument list closest to the one given", () => {
    const lists = ["(name, param, val)", "(attr, id)"];
    expect(closestMatch("(nam, pqaram, vall)", lists)).toBe("(name, param, val)");
    expect(closestMatch("(param, val)", lists)).toBe("(name, param, val)");
    expect(closestMatch("(attrs, id)", lists)).toBe("(attr, id)");
    expect(closestMatch("(id)", lists)).toBe("(attr, id)");
    expect(closestMatch("(noclosealternative)", lists)).toBeNull();
  });
});
