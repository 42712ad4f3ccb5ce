/**
 * The proof of work under attack (PROOF_OF_WORK=on, low thresholds): wrong passwords, reset requests, dead invitation
 * links, refused pushes and token-less registrations count per address, account and instance; past a threshold the
 * login, forgot-password and invitation forms take a submission only with a solved challenge (solved here by the
 * browser's own solver, on Node's Web Crypto), and pushes for public clients and registrations answer 400
 * `proof_of_work_required` with a challenge to solve. A bad, foreign-purpose, expired or replayed solution is refused;
 * a second instance on the same database (its own Prisma client) sees the same pressure and the same used solutions.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { createPrismaClient } from "@/lib/db/prisma";
import { handleLoginSubmission } from "@/lib/forms/login-submission";
import { createProofChallenge, type ProofPurpose } from "@/lib/proof-of-work/challenge";
import { PROOF_OF_WORK_FIELD, PROOF_OF_WORK_HEADER } from "@/lib/proof-of-work/proof-gate";
import { solveProofInBrowser } from "@/lib/proof-of-work/solve-in-browser";
import { serviceContextFor } from "@/lib/service-context";
import { prismaStores } from "@/lib/store/stores";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { runAdmin } from "../../helpers/admin-cli";
import {
  call,
  formRequest,
  ISSUER,
  pkcePair,
  SECRET_KEY,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

// The route handlers read their configuration from the environment at their first request.
beforeAll(() => {
  Object.assign(process.env, {
    PROOF_OF_WORK: "on",
    PROOF_OF_WORK_ADDRESS_FAILURES: "4",
    PROOF_OF_WORK_ACCOUNT_FAILURES: "2",
    PROOF_OF_WORK_INSTANCE_FAILURES: "0",
    PROOF_OF_WORK_DIFFICULTY: "2000",
  });
});
const service = useOAuthService();
const db = () => service().database.db;

const RIGHT = "Optician#2026";
let address = 0;
/** Each test comes from its own network, so that only its own failures count for its address. */
const newAgent = () => new UserAgent("en", `203.0.${++address}.10`);

const solved = async (purpose: ProofPurpose, now?: Date) => {
  const challenge = await createProofChallenge(getConfig().proofOfWork!, SECRET_KEY, purpose, now);
  return (await solveProofInBrowser(challenge, () => {}, new AbortController()))!;
};

const errorOf = (response: Response) =>
  new URL(response.headers.get("location")!, ISSUER).searchParams.get("error") ??
  (response.headers.get("location") === "/" ? "signed_in" : response.headers.get("location"));

const signInFailures = (email: string) =>
  db().auditEvent.count({ where: { type: "sign_in.failed", details: { contains: email } } });

async function userWithPassword(email: string) {
  const hash = (await db().user.findFirstOrThrow({ where: { email: "optician@demo.test" } })).passwordHash;
  await db().user.create({
    data: { email, givenName: "Po", familyName: "W", companyId: "demo-company-optician", passwordHash: hash },
  });
  return email;
}

let accounts = 0;
const newAccount = () => userWithPassword(`pow-${++accounts}@demo.test`);

describe(`the proof of work at the login form, on ${testProvider()}`, () => {
  it("asks nothing below the account's threshold, then takes the right password only with a solution", async () => {
    const email = await newAccount();
    const agent = newAgent();
    expect(errorOf(await agent.login("/", email, "wrong one"))).toBe("invalid_credentials");
    expect(errorOf(await agent.login("/", email, RIGHT))).toBe("signed_in");
    expect(errorOf(await agent.login("/", email, "wrong two"))).toBe("invalid_credentials");
    const before = await signInFailures(email);
    // Past the threshold even the right password waits for the proof, and no password is checked without it.
    expect(errorOf(await agent.login("/", email, RIGHT))).toBe("proof_of_work_required");
    expect(errorOf(await agent.login("/", email, "wrong three"))).toBe("proof_of_work_required");
    expect(await signInFailures(email)).toBe(before);
    // Another network asks for the same account: the account's pressure holds there too.
    expect(errorOf(await newAgent().login("/", email, RIGHT))).toBe("proof_of_work_required");
    const proof = { [PROOF_OF_WORK_FIELD]: await solved("login") };
    expect(errorOf(await agent.login("/", email, RIGHT, proof))).toBe("signed_in");
  });

  it("refuses a tampered, foreign, expired or replayed solution, and takes a fresh one", async () => {
    const email = await newAccount();
    const agent = newAgent();
    for (const wrong of ["a", "b"]) await agent.login("/", email, wrong);
    const payload = await solved("login");
    const decoded = JSON.parse(Buffer.from(payload, "base64").toString());
    decoded.solution.derivedKey = decoded.solution.derivedKey.replace(/^./, (c: string) => (c === "0" ? "1" : "0"));
    const tampered = Buffer.from(JSON.stringify(decoded)).toString("base64");
    const expired = await solved("login", new Date(Date.now() - 3600_000));
    for (const bad of [tampered, await solved("registration"), expired, "not base64 at all!", "x".repeat(5000)])
      expect(errorOf(await agent.login("/", email, RIGHT, { [PROOF_OF_WORK_FIELD]: bad }))).toBe(
        "proof_of_work_failed",
      );
    expect(errorOf(await agent.login("/", email, "wrong", { [PROOF_OF_WORK_FIELD]: payload }))).toBe(
      "invalid_credentials",
    );
    expect(errorOf(await agent.login("/", email, RIGHT, { [PROOF_OF_WORK_FIELD]: payload }))).toBe(
      "proof_of_work_failed",
    );
    expect(errorOf(await agent.login("/", email, RIGHT, { [PROOF_OF_WORK_FIELD]: await solved("login") }))).toBe(
      "signed_in",
    );
  });

  it("counts an address's failures across accounts, and leaves other networks alone", async () => {
    const agent = newAgent();
    for (let index = 0; index < 4; index++) await agent.login("/", `nobody-${index}@demo.test`, "guess");
    const fresh = await newAccount();
    expect(errorOf(await agent.login("/", fresh, RIGHT))).toBe("proof_of_work_required");
    expect(errorOf(await newAgent().login("/", fresh, RIGHT))).toBe("signed_in");
  });

  it("holds across instances: a second instance sees the pressure and the solutions used at the first", async () => {
    const email = await newAccount();
    const agent = newAgent();
    for (const wrong of ["a", "b"]) await agent.login("/", email, wrong);
    const otherDb = createPrismaClient(service().database.target);
    try {
      const other = serviceContextFor(prismaStores(otherDb), getConfig());
      const loginAtOther = (extra: Record<string, string>) =>
        handleLoginSubmission(
          formRequest(
            "/interaction/login",
            { [CSRF_FIELD]: agent.csrfToken, returnUrl: "/", username: email, password: RIGHT, ...extra },
            {
              cookie: `${[...agent.cookies].map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join("; ")}`,
              "x-forwarded-for": agent.address,
            },
          ),
          other,
        );
      expect(errorOf(await loginAtOther({}))).toBe("proof_of_work_required");
      const payload = await solved("login");
      expect(errorOf(await agent.login("/", email, RIGHT, { [PROOF_OF_WORK_FIELD]: payload }))).toBe("signed_in");
      expect(errorOf(await loginAtOther({ [PROOF_OF_WORK_FIELD]: payload }))).toBe("proof_of_work_failed");
      expect(errorOf(await loginAtOther({ [PROOF_OF_WORK_FIELD]: await solved("login") }))).toBe("signed_in");
    } finally {
      await otherDb.$disconnect();
    }
  });
});

describe(`the proof of work at the other forms, on ${testProvider()}`, () => {
  it("counts reset requests for an account, then asks the forgot-password form for a solution", async () => {
    const email = await newAccount();
    const ask = (agent: UserAgent, extra: Record<string, string> = {}) =>
      agent.post("forgot", "/interaction/password/forgot", { email, ...extra });
    for (const agent of [newAgent(), newAgent()])
      expect(await ask(agent).then(errorOf)).toBe("/password/forgot?sent=1");
    const mails = await db().outboxMessage.count({ where: { recipient: email } });
    expect(await ask(newAgent()).then(errorOf)).toBe("proof_of_work_required");
    expect(await db().outboxMessage.count({ where: { recipient: email } })).toBe(mails);
    const proof = { [PROOF_OF_WORK_FIELD]: await solved("password_reset") };
    expect(await ask(newAgent(), proof).then(errorOf)).toBe("/password/forgot?sent=1");
  });

  it("counts dead invitation links from an address, then asks the invitation form for a solution", async () => {
    const agent = newAgent();
    const join = (token: string, extra: Record<string, string> = {}) =>
      agent.post("invitation", "/interaction/invitation", {
        token,
        given_name: "Ina",
        family_name: "Vited",
        password: "quitte ofenrohr kranich nebel",
        ...extra,
      });
    for (let index = 0; index < 4; index++) await join(`dead-link-${index}`);
    const email = `pow-invited@demo.test`;
    const invited = await runAdmin(db(), ["users", "invite", email, "--company", "demo-company-optician"]);
    const token = new URL(JSON.parse(invited.stdout).invitation_url).searchParams.get("token")!;
    const refused = await join(token);
    expect(refused.headers.get("location")).toMatch(/^\/invitation\?token=/);
    expect(await db().user.count({ where: { email } })).toBe(0);
    const joined = await join(token, { [PROOF_OF_WORK_FIELD]: await solved("invitation") });
    expect(joined.headers.get("location")).toBe("/portal/applications");
  });
});

describe(`the proof of work for API clients, on ${testProvider()}`, () => {
  const pushFor = (client: string, from: string, headers: Record<string, string> = {}) =>
    call(
      "par",
      formRequest(
        "/connect/par",
        {
          client_id: client,
          response_type: "code",
          scope: "openid",
          state: "s",
          redirect_uri: "com.example.demo:/callback",
          code_challenge: pkcePair().challenge,
          code_challenge_method: "S256",
        },
        { "x-forwarded-for": from, ...headers },
      ),
    );

  it("answers a public client's push 400 proof_of_work_required with a challenge, and takes it solved", async () => {
    const from = `198.18.${++address}.1`;
    for (let index = 0; index < 4; index++) {
      const refused = await call(
        "par",
        formRequest("/connect/par", { client_id: "demo-native", response_type: "code" }, { "x-forwarded-for": from }),
      );
      expect(refused.status).toBe(400);
    }
    const asked = await pushFor("demo-native", from);
    expect(asked.status).toBe(400);
    expect(asked.headers.get("cache-control")).toBe("no-store");
    const body = await asked.json();
    expect(body).toMatchObject({ error: "proof_of_work_required" });
    const solution = await solveProofInBrowser(body.proof_of_work_challenge, () => {}, new AbortController());
    const pushed = await pushFor("demo-native", from, { [PROOF_OF_WORK_HEADER]: solution! });
    expect(pushed.status).toBe(201);
    expect(await pushed.json()).toHaveProperty("request_uri");
    const replayed = await pushFor("demo-native", from, { [PROOF_OF_WORK_HEADER]: solution! });
    expect([replayed.status, (await replayed.json()).error]).toEqual([400, "proof_of_work_required"]);
  });

  it("asks registrations for a solution after token-less attempts from the network", async () => {
    const from = `198.18.${++address}.1`;
    const register = (headers: Record<string, string>) =>
      call(
        "register",
        new Request(`${ISSUER}/connect/register`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": from, ...headers },
          body: JSON.stringify({ redirect_uris: ["https://app.example/cb"] }),
        }),
      );
    for (let index = 0; index < 4; index++)
      expect((await register({ authorization: `Bearer guess-${index}` })).status).toBe(401);
    const asked = await register({ authorization: "Bearer guess-5" });
    expect(asked.status).toBe(400);
    const { error, proof_of_work_challenge: challenge } = await asked.json();
    expect(error).toBe("proof_of_work_required");
    const solution = await solveProofInBrowser(challenge, () => {}, new AbortController());
    // Solved, the request goes on to the token check, which this guess does not pass.
    expect((await register({ authorization: "Bearer guess-6", [PROOF_OF_WORK_HEADER]: solution! })).status).toBe(401);
  });
});
