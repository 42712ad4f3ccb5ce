/**
 * `npm run mail-catcher` shows what OptiGate mails to it, links and all, for trying mail without a mail server: printed
 * in its terminal and on its web page.
 */
import { spawn } from "node:child_process";
import { createTransport } from "nodemailer";
import { expect, it } from "vitest";
import { freePort } from "../../helpers/browser-run";

it("prints each message it receives and shows it on its page: recipient, subject and text with its links", async () => {
  const [port, webPort] = [freePort(), freePort()];
  const catcher = spawn(process.execPath, ["--import", "tsx", "scripts/mail-catcher.ts"], {
    env: { ...process.env, MAIL_CATCHER_PORT: port, MAIL_CATCHER_WEB_PORT: webPort },
  });
  let output = "";
  catcher.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (let waited = 0; !output.includes("Catching mail") && waited < 15_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(output).toContain(
      `Catching mail on smtp://127.0.0.1:${port} (start OptiGate with that SMTP_URL); read it on http://127.0.0.1:${webPort}/`,
    );
    await createTransport(`smtp://127.0.0.1:${port}`).sendMail({
      from: "OptiGate <no-reply@optigate.test>",
      to: "supplier@demo.test",
      subject: "Neues OptiGate-Passwort festlegen",
      text: "Öffnen Sie <diesen> Link:\nhttp://localhost:3000/password/reset?token=abc&ui_locales=de",
    });
    for (let waited = 0; !output.includes("token=abc") && waited < 5000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(output).toContain(
      "── To: supplier@demo.test\n   Subject: Neues OptiGate-Passwort festlegen\n\nÖffnen Sie <diesen> Link:\nhttp://localhost:3000/password/reset?token=abc&ui_locales=de",
    );

    const page = await fetch(`http://127.0.0.1:${webPort}/`);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const html = await page.text();
    expect(html).toContain('<article data-recipient="supplier@demo.test">');
    expect(html).toContain("<h2>Neues OptiGate-Passwort festlegen</h2>");
    // The text is escaped, its link made clickable.
    expect(html).toContain(
      'Öffnen Sie &#60;diesen&#62; Link:\n<a href="http://localhost:3000/password/reset?token=abc&#38;ui_locales=de">',
    );
    expect((await fetch(`http://127.0.0.1:${webPort}/other`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${webPort}/`, { method: "POST" })).status).toBe(405);
  } finally {
    catcher.kill();
  }
});
