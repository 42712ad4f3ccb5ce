import { describe, expect, it } from "vitest";
import { renderInvitationMail } from "@/lib/mail/invitation-mail";
import { retryDelayMs } from "@/lib/mail/outbox-worker";
import { deliveryFailure } from "@/lib/mail/smtp-sender";

const values = {
  companyName: 'Optik <b>"Klar"</b> & Co',
  inviterName: "Olivia Optik",
  url: "https://id.example.com/invitation?token=abc&ui_locales=de",
  validDays: 7,
};

describe("the invitation mail", () => {
  it("is written in the invitation's language, text and HTML, with the link as the only address", async () => {
    const german = await renderInvitationMail({ ...values, language: "de" });
    expect(german.subject).toBe('Ihre Einladung zu Optik <b>"Klar"</b> & Co bei OptiGate');
    expect(german.text).toContain("Olivia Optik hat Sie eingeladen");
    expect(german.text).toContain(`Einladung annehmen:\n${values.url}`);
    expect(german.html).toContain('<html lang="de">');
    expect(german.html).toContain("Optik &lt;b&gt;&quot;Klar&quot;&lt;/b&gt; &amp; Co");
    expect(german.html).not.toContain("<b>");
    expect(german.html).toContain('href="https://id.example.com/invitation?token=abc&amp;ui_locales=de"');
    const english = await renderInvitationMail({ ...values, language: "en", inviterName: undefined });
    expect(english.text).toMatch(/^Hello,\n\nYou have been invited to join/);
    expect(english.text).toContain("for 7 days");
  });
});

describe("the inviter's name in OptiGate's sentence", () => {
  it("stands only when it is plain letters; an address, a domain or a direction override leaves it out", async () => {
    for (const name of ["J. Smith", "Anne-Marie O’Neil", "Łukasz Żółw"]) {
      const mail = await renderInvitationMail({ ...values, language: "en", inviterName: name });
      expect(mail.text, name).toContain(`${name} has invited you`);
    }
    for (const name of [
      "https://evil.example",
      "paypal-security.com",
      "Olivia \u202Etpo",
      "call +1 555",
      "a@b.example",
    ]) {
      const mail = await renderInvitationMail({ ...values, language: "en", inviterName: name });
      expect(mail.text, name).toMatch(/You have been invited to join/);
      expect(mail.text, name).not.toContain(name);
    }
  });
});

describe("delivery failures and retries", () => {
  it("treats 5xx replies as permanent and everything else as worth another try", () => {
    expect(deliveryFailure(Object.assign(new Error("550 no such user"), { responseCode: 550 })).permanent).toBe(true);
    expect(deliveryFailure(Object.assign(new Error("451 later"), { responseCode: 451 })).permanent).toBe(false);
    expect(deliveryFailure(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })).permanent).toBe(false);
    expect(deliveryFailure(new Error("x".repeat(600))).reason).toHaveLength(500);
  });

  it("waits 30 s, then twice as long each time, at most an hour", () => {
    expect([1, 2, 3, 4, 8, 20].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
  });
});
