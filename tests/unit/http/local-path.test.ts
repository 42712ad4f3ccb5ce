import { describe, expect, it } from "vitest";
import { safeLocalPath } from "@/lib/http/local-path";

describe("safeLocalPath", () => {
  it("keeps local paths, normalized", () => {
    expect(safeLocalPath("/connect/authorize?a=1")).toBe("/connect/authorize?a=1");
    expect(safeLocalPath("/portal/./applications")).toBe("/portal/applications");
    expect(safeLocalPath("/a/../portal")).toBe("/portal");
  });

  it("refuses anything that leaves the origin, also after normalization", () => {
    const bad = [
      "//evil.example/",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "",
      undefined,
      // Dot segments that collapse into a protocol-relative URL (the security review's findings).
      "/.//evil.com",
      "/..//evil.com",
      "/%2e//evil.com",
      "/%2E%2E//evil.com",
      "/./\\evil.com",
      "/a/..//evil.com",
      "/.\\/evil.com",
      "/\t/evil.com",
      "/\n/evil.com",
    ];
    for (const value of bad) expect(safeLocalPath(value), String(value)).toBeUndefined();
  });
});
