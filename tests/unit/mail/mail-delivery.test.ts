import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/lib/config";
import type { Db } from "@/lib/db/prisma";
import { startMailDelivery, stopMailDelivery } from "@/lib/mail/mail-delivery";
import { logger } from "@/lib/observability/logger";

const env = { SECRET_KEY: "s".repeat(40), DATABASE_URL: "postgresql://db.example/optigate" };
const unusedDb = {} as Db;

afterEach(async () => {
  vi.restoreAllMocks();
  await stopMailDelivery();
});

describe("mail delivery at start-up", () => {
  it("says once, in production, that mail is not sent without SMTP_URL", () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const production = loadConfig({ ...env, NODE_ENV: "production" });
    startMailDelivery(production, unusedDb);
    startMailDelivery(production, unusedDb);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith("SMTP_URL is not set: mail is kept in the outbox and not sent");
  });

  it("keeps quiet outside production, where the outbox page is the mailbox", () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    startMailDelivery(loadConfig({ ...env, NODE_ENV: "development" }), unusedDb);
    expect(warn).not.toHaveBeenCalled();
  });
});
