/** Who may change a supplier registration from which status, and what a customer number and groups may be. */
import { describe, expect, it } from "vitest";
import {
  checkChange,
  checkClientId,
  checkCustomerGroups,
  isOpen,
  MAX_CUSTOMER_GROUP,
  MAX_CUSTOMER_GROUPS,
  RegistrationError,
  type RegistrationChange,
  type RegistrationSide,
  type RegistrationStatus,
} from "@/lib/catalog/registrations/registration-rules";
import { thrown } from "../../helpers/thrown";

const approve: RegistrationChange = { status: "active", customerGroups: [1] };
const reject: RegistrationChange = { status: "rejected" };
const withdraw: RegistrationChange = { status: "withdrawn" };
const subscribe: RegistrationChange = { subscriptions: [{ catalogId: "c", status: "Subscribed" }] };

describe("isOpen", () => {
  it.each<[RegistrationStatus, boolean]>([
    ["requested", true],
    ["active", true],
    ["rejected", false],
    ["withdrawn", false],
  ])("%s: %s", (status, open) => {
    expect(isOpen(status)).toBe(open);
  });
});

describe("checkChange: allowed changes", () => {
  it.each<[RegistrationSide, RegistrationStatus, RegistrationChange]>([
    ["optician", "requested", subscribe],
    ["optician", "active", subscribe],
    ["supplier", "requested", approve],
    ["supplier", "requested", reject],
    ["optician", "requested", withdraw],
    ["optician", "active", withdraw],
    ["supplier", "active", withdraw],
  ])("%s may make %s registration %o", (side, status, change) => {
    expect(() => checkChange(side, status, change)).not.toThrow();
  });
});

describe("checkChange: refusals", () => {
  it.each<[RegistrationSide, RegistrationStatus, RegistrationChange, string, string]>([
    [
      "supplier",
      "active",
      subscribe,
      "forbidden",
      "Only the optician changes the catalog subscriptions of a registration.",
    ],
    [
      "other",
      "active",
      subscribe,
      "forbidden",
      "Only the optician changes the catalog subscriptions of a registration.",
    ],
    ["optician", "rejected", subscribe, "invalid", "The subscriptions of a rejected registration cannot be changed."],
    ["optician", "withdrawn", subscribe, "invalid", "The subscriptions of a withdrawn registration cannot be changed."],
    ["optician", "requested", approve, "forbidden", "Only the supplier sets a registration active."],
    ["other", "requested", reject, "forbidden", "Only the supplier sets a registration rejected."],
    ["supplier", "active", approve, "invalid", "Only a requested registration can become active; this one is active."],
    [
      "supplier",
      "withdrawn",
      reject,
      "invalid",
      "Only a requested registration can become rejected; this one is withdrawn.",
    ],
    [
      "optician",
      "rejected",
      withdraw,
      "invalid",
      "Only a requested or active registration can be withdrawn; this one is rejected.",
    ],
    [
      "supplier",
      "requested",
      withdraw,
      "invalid",
      "The supplier can end only an active registration; this one is requested.",
    ],
    ["other", "active", withdraw, "forbidden", "Only the optician or the supplier of a registration can change it."],
  ])("%s may not make a %s registration %o: %s", (side, status, change, code, message) => {
    const error = thrown(RegistrationError, () => checkChange(side, status, change));
    expect({ code: error.code, message: error.message }).toEqual({ code, message });
  });
});

describe("checkClientId", () => {
  it.each(["K-1", "4711", "Müller & Söhne 12", "x".repeat(40)])("accepts %j", (clientId) => {
    expect(() => checkClientId(clientId)).not.toThrow();
  });

  it.each([
    ["empty", ""],
    ["41 characters", "x".repeat(41)],
    ["a leading space", " K-1"],
    ["a trailing space", "K-1 "],
    ["a tab", "K\t1"],
    ["a zero-width space", "K\u200b1"],
    ["a bidi override", "K\u202e1"],
    ["a lone surrogate", "K\ud8001"],
  ])("refuses %s", (_, clientId) => {
    const error = thrown(RegistrationError, () => checkClientId(clientId));
    expect({ code: error.code, message: error.message }).toEqual({
      code: "invalid",
      message: "clientId must be the customer number at the supplier: 1 to 40 printable characters.",
    });
  });
});

describe("checkCustomerGroups", () => {
  it.each([[[]], [[1]], [[1, 2, MAX_CUSTOMER_GROUP]], [Array.from({ length: MAX_CUSTOMER_GROUPS }, (_, i) => i + 1)]])(
    "accepts %j",
    (groups) => {
      expect(() => checkCustomerGroups(groups)).not.toThrow();
    },
  );

  it.each([
    [
      "more than 100 groups",
      Array.from({ length: MAX_CUSTOMER_GROUPS + 1 }, (_, i) => i + 1),
      "customerGroups may list at most 100 groups.",
    ],
    ["group 0", [0], "customerGroups must be whole numbers from 1 to 999999999 (group 0 is everyone's); got 0."],
    [
      "a negative group",
      [-1],
      "customerGroups must be whole numbers from 1 to 999999999 (group 0 is everyone's); got -1.",
    ],
    ["a fraction", [1.5], "customerGroups must be whole numbers from 1 to 999999999 (group 0 is everyone's); got 1.5."],
    [
      "a group above the largest",
      [MAX_CUSTOMER_GROUP + 1],
      "customerGroups must be whole numbers from 1 to 999999999 (group 0 is everyone's); got 1000000000.",
    ],
    ["a repeated group", [3, 4, 3], "customerGroups must not repeat a group."],
  ])("refuses %s", (_, groups, message) => {
    const error = thrown(RegistrationError, () => checkCustomerGroups(groups));
    expect({ code: error.code, message: error.message }).toEqual({ code: "invalid", message });
  });
});
