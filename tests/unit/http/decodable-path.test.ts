import { describe, expect, it } from "vitest";
import { isDecodablePath } from "@/lib/http/decodable-path";
import { isInteractionPage } from "@/lib/pages/page-proxy";

describe("isDecodablePath", () => {
  it.each([
    ["/admin/clients/demo-web", true],
    ["/admin/clients/%C3%A4", true],
    ["/x?q=%ZZ", true],
    [undefined, true],
    ["/admin/clients/%ZZ", false],
    ["/%", false],
    ["/a%2", false],
    ["/%E2%82", false],
    ["/%C0%AF", false],
    ["/%ED%A0%80", false],
  ])("%s: %s", (path, decodable) => {
    expect(isDecodablePath(path)).toBe(decodable);
  });
});

describe("isInteractionPage", () => {
  it.each([
    ["/login", true],
    ["/consent", true],
    ["/device", true],
    ["/signout", true],
    ["/portal", true],
    ["/portal/profile", true],
    ["/admin", true],
    ["/admin/clients/x", true],
    ["/login/x", false],
    ["/portalx", false],
    ["/connect/token", false],
    ["/", false],
    ["/interaction/login", false],
    ["/interaction/device", false],
    ["/devices", false],
  ])("%s: %s", (path, page) => {
    expect(isInteractionPage(path)).toBe(page);
  });
});
