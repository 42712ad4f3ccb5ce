import { describe, expect, it } from "vitest";
import { CLOCK_LEEWAY_SECONDS, MAX_LOGOUT_TOKEN_AGE_SECONDS } from "@/lib/config/policy";
import {
  BACKCHANNEL_LOGOUT_EVENT,
  logoutClaimsProblem,
  upstreamLogoutOf,
} from "@/lib/oauth/company-sso/logout-token-claims";

const NOW = 1_800_000_000;
const TOKEN = {
  iss: "https://idp.frame-works.example",
  aud: "optigate",
  iat: NOW - 10,
  jti: "bWJq",
  sub: "248289761001",
  sid: "08a5019c-17e1-4977-8f42-65a12843ea02",
  events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
};

describe("logoutClaimsProblem", () => {
  it.each([
    ["a logout token with sub and sid", {}, null],
    ["sub alone", { sid: undefined }, null],
    ["sid alone", { sub: undefined }, null],
    ["an iat at the edge of the leeway", { iat: NOW + CLOCK_LEEWAY_SECONDS }, null],
    ["no events", { events: undefined }, /events/],
    ["events as a list", { events: [BACKCHANNEL_LOGOUT_EVENT] }, /events/],
    ["another event only", { events: { "urn:example:event": {} } }, /events/],
    ["the event's value not an object", { events: { [BACKCHANNEL_LOGOUT_EVENT]: true } }, /events/],
    ["a nonce", { nonce: "n-0S6_WzA2Mj" }, /nonce/],
    ["a nonce even if empty", { nonce: "" }, /nonce/],
    ["neither sub nor sid", { sub: undefined, sid: undefined }, /neither/],
    ["a sub that is a number", { sub: 248289761001 }, /sub/],
    ["an empty sid", { sid: "" }, /sid/],
    ["a sid too long", { sid: "s".repeat(256) }, /sid/],
    ["no jti", { jti: undefined }, /jti/],
    ["a jti too long", { jti: "j".repeat(257) }, /jti/],
    ["no iat", { iat: undefined }, /iat/],
    ["an iat as a string", { iat: String(NOW) }, /iat/],
    ["an iat in the future", { iat: NOW + CLOCK_LEEWAY_SECONDS + 1 }, /future/],
    ["an iat too old", { iat: NOW - MAX_LOGOUT_TOKEN_AGE_SECONDS - CLOCK_LEEWAY_SECONDS - 1 }, /too old/],
  ])("%s", (_case, change, problem) => {
    const claims = JSON.parse(JSON.stringify({ ...TOKEN, ...change }));
    const found = logoutClaimsProblem(claims, NOW);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});

describe("upstreamLogoutOf", () => {
  it("names whom it signs out, and keeps its jti as long as the token is taken", () => {
    expect(upstreamLogoutOf(TOKEN)).toEqual({
      issuer: TOKEN.iss,
      subject: TOKEN.sub,
      sid: TOKEN.sid,
      jti: TOKEN.jti,
      acceptedUntil: TOKEN.iat + MAX_LOGOUT_TOKEN_AGE_SECONDS,
    });
    expect(upstreamLogoutOf({ ...TOKEN, sid: undefined, exp: TOKEN.iat + 60 })).toEqual({
      issuer: TOKEN.iss,
      subject: TOKEN.sub,
      jti: TOKEN.jti,
      acceptedUntil: TOKEN.iat + 60,
    });
    expect(upstreamLogoutOf({ ...TOKEN, sub: undefined })).not.toHaveProperty("subject");
  });
});
