/**
 * The partner portal's notice after a form says what is true of the application now: waiting, approved or not
 * approved, for a registration and for a change; a removal only once the application is gone.
 */
import { describe, expect, it } from "vitest";
import { developerNotice } from "@/lib/pages/developer-notice";

const application = (status: string, changeWaiting = false, reviewNote: string | null = null) => ({
  client: { id: "shop" },
  status,
  changeWaiting,
  reviewNote,
});

describe("developerNotice", () => {
  it.each([
    [{ registered: "shop" }, application("pending"), { key: "registered", clientId: "shop" }],
    [{ registered: "shop" }, application("approved"), { key: "registeredApproved", clientId: "shop" }],
    [{ registered: "shop" }, application("approved", true), { key: "registeredApproved", clientId: "shop" }],
    [
      { registered: "shop" },
      application("rejected", false, "no"),
      { key: "registeredRejected", clientId: "shop", refused: true },
    ],
    [{ changed: "shop" }, application("pending"), { key: "changed", clientId: "shop" }],
    [{ changed: "shop" }, application("approved", true), { key: "changed", clientId: "shop" }],
    [{ changed: "shop" }, application("approved", true, "earlier"), { key: "changed", clientId: "shop" }],
    [{ changed: "shop" }, application("approved"), { key: "changedApproved", clientId: "shop" }],
    [
      { changed: "shop" },
      application("approved", false, "no"),
      { key: "changedRejected", clientId: "shop", refused: true },
    ],
    [
      { changed: "shop" },
      application("rejected", false, "no"),
      { key: "changedRejected", clientId: "shop", refused: true },
    ],
    [{ removed: "gone" }, application("approved"), { key: "removed" }],
  ])("%j of a %j application", (query, standing, notice) => {
    expect(developerNotice(query, [standing])).toEqual(notice);
  });

  it("names only the company's own applications, and no removal of one still there", () => {
    expect(developerNotice({ registered: "foreign" }, [application("pending")])).toBeUndefined();
    expect(developerNotice({ changed: "foreign" }, [application("pending")])).toBeUndefined();
    expect(developerNotice({ removed: "shop" }, [application("approved")])).toBeUndefined();
    expect(developerNotice({}, [application("approved")])).toBeUndefined();
  });
});
