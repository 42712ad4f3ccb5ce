import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/lib/config";
import { memoryStores } from "@/lib/store/memory/memory-stores";
import { startMailDelivery, stopMailDelivery } from "@/lib/mail/mail-delivery";
import { logger } from "@/lib/observability/logger";

const env = { SECRET_KEY: "s".repeat(40), DATABASE_URL: "postgresql://db.example/optigate" };
const outbox = memoryStores().outbox;

afterEach(async () => {
  vi.restoreAllMocks();
  await stopMailDelivery();
});

describe("mail delivery at start-up", () => {
  it("says once, in production, that mail is not sent without SMTP_URL", () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const production = loadConfig({ ...env, NODE_ENV: "production" });
    startMailDelivery(production, outbox);
    startMailDelivery(production, outbox);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith("SMTP_URL is not set: mail is kept in the outbox and not sent");
  });

  it("keeps quiet outside production, where the outbox page is the mailbox", () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    startMailDelivery(loadConfig({ ...env, NODE_ENV: "development" }), outbox);
    expect(warn).not.toHaveBeenCalled();
  });
});
