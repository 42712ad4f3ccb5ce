/** A secret's last use is written at most once a minute per secret (and process). */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { noteSecretUse } from "@/lib/oauth/clients/secret-use";
import { memoryStores } from "@/lib/store/memory/memory-stores";

const clients = memoryStores().clients;
const recordSecretUse = vi.spyOn(clients, "recordSecretUse");

beforeEach(() => recordSecretUse.mockReset().mockResolvedValue(undefined));

describe("noting a client secret's use", () => {
  it("writes the first use, then again only a minute later, for each secret on its own", () => {
    const start = Date.UTC(2026, 10, 25, 12);
    const at = (seconds: number) => new Date(start + seconds * 1000);
    noteSecretUse(clients, "hash-a", at(0));
    noteSecretUse(clients, "hash-a", at(30));
    noteSecretUse(clients, "hash-b", at(30));
    noteSecretUse(clients, "hash-a", at(59));
    noteSecretUse(clients, "hash-a", at(61));
    expect(recordSecretUse.mock.calls.map(([hash, now]) => [hash, now.getTime() - start])).toEqual([
      ["hash-a", 0],
      ["hash-b", 30_000],
      ["hash-a", 61_000],
    ]);
  });
});
