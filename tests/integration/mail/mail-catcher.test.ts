/** `npm run mail-catcher` prints what OptiGate mails to it, links and all, for trying mail without a mail server. */
import { spawn } from "node:child_process";
import { createTransport } from "nodemailer";
import { expect, it } from "vitest";
import { freePort } from "../../helpers/browser-run";

it("prints each message it receives: recipient, subject and text", async () => {
  const port = freePort();
  const catcher = spawn(process.execPath, ["--import", "tsx", "scripts/mail-catcher.ts"], {
    env: { ...process.env, MAIL_CATCHER_PORT: port },
  });
  let output = "";
  catcher.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (let waited = 0; !output.includes("Catching mail") && waited < 15_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(output).toContain(`Catching mail on smtp://127.0.0.1:${port}`);
    await createTransport(`smtp://127.0.0.1:${port}`).sendMail({
      from: "OptiGate <no-reply@optigate.test>",
      to: "supplier@demo.test",
      subject: "Neues OptiGate-Passwort festlegen",
      text: "http://localhost:3000/password/reset?token=abc&ui_locales=de",
    });
    for (let waited = 0; !output.includes("token=abc") && waited < 5000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(output).toContain(
      "── To: supplier@demo.test\n   Subject: Neues OptiGate-Passwort festlegen\n\nhttp://localhost:3000/password/reset?token=abc&ui_locales=de",
    );
  } finally {
    catcher.kill();
  }
});
