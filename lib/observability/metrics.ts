/**
 * Prometheus metrics of the process (prom-client), shared by the Next.js bundle and the lean front: requests by
 * endpoint and latency, token requests by grant and result, tokens issued, sign-ins, second-factor failures and
 * lock-outs, device sign-ins, breached-password lookups, the mail outbox, protocol error codes, catalog bytes
 * streamed, and the database pool's connections. Served at /metrics only when METRICS_TOKEN is set
 * (lib/server/metrics-endpoint.ts). Every label value comes from a fixed set in the code, never from a request, so that
 * no caller can grow the number of series.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { processCache } from "@/lib/observability/process-cache";

/** Grant types as labels: the known ones, anything else "other". */
const GRANTS = [
  "authorization_code",
  "refresh_token",
  "client_credentials",
  "urn:ietf:params:oauth:grant-type:jwt-bearer",
  "urn:ietf:params:oauth:grant-type:token-exchange",
  "urn:ietf:params:oauth:grant-type:device_code",
] as const;
export type GrantLabel = (typeof GRANTS)[number] | "other" | "none";

const TOKEN_TYPES = ["access_token", "id_token", "refresh_token"] as const;

/**
 * The credential a sign-in step was given; an email link is a password reset's or an invitation's, company_sso a
 * company's identity provider's answer.
 */
export type SignInFactor = "password" | "totp" | "recovery_code" | "passkey" | "email_link" | "company_sso";
/** How a sign-in step ended; `factor_failed`: a code or passkey was refused (second_factor_failures says why). */
export type SignInResult =
  | "success"
  | "second_factor_required"
  | "unknown_user"
  | "bad_password"
  | "account_disabled"
  | "locked"
  | "factor_failed";
export type SecondFactorLabel = "totp" | "recovery_code" | "passkey";
/** Which throttle key was locked, and by failures of what (user_code: wrong codes entered at /device). */
export type Lockout =
  | { scope: "account" | "address"; cause: "password" | "second_factor" }
  | { scope: "client"; cause: "client_authentication" }
  | { scope: "address" | "network" | "session" | "account" | "everyone"; cause: "user_code" };
/** The steps of a device's sign-in (RFC 8628): its request, and the person's decision at /device. */
export type DeviceStep = "requested" | "approved" | "denied";
/** What a lookup of a new password among breached ones found; `timeout` and `unavailable` let the estimator decide. */
export type BreachCheckResult = "breached" | "not_breached" | "timeout" | "unavailable";

function counter<L extends string>(name: string, help: string, labelNames: readonly L[], registry: Registry) {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "optigate_" });
  return {
    registry,
    requests: new Histogram({
      name: "optigate_http_request_duration_seconds",
      help: "Time to the response headers, by endpoint, method and status class",
      labelNames: ["endpoint", "method", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    tokenRequests: counter(
      "optigate_token_requests_total",
      "Token requests by grant type and result (issued, or the error code)",
      ["grant", "result"],
      registry,
    ),
    tokensIssued: counter(
      "optigate_tokens_issued_total",
      "Tokens handed out by grant (implicit: by the authorization endpoint) and token type",
      ["grant", "token"],
      registry,
    ),
    signIns: counter("optigate_sign_ins_total", "Sign-in steps by factor and result", ["factor", "result"], registry),
    secondFactorFailures: counter(
      "optigate_second_factor_failures_total",
      "Codes and passkeys refused, at a sign-in or a step-up, by factor and reason",
      ["factor", "reason"],
      registry,
    ),
    lockouts: counter(
      "optigate_lockouts_total",
      "Lock-outs started, by throttle key scope and the failures that reached its limit",
      ["scope", "cause"],
      registry,
    ),
    deviceAuthorizations: counter(
      "optigate_device_authorizations_total",
      "Device sign-ins by step: requested by the device, approved or denied by the person",
      ["step"],
      registry,
    ),
    passwordBreachChecks: counter(
      "optigate_password_breach_checks_total",
      "New passwords looked up among breached ones (PASSWORD_BREACH_CHECK), by result",
      ["result"],
      registry,
    ),
    mailQueued: counter("optigate_mail_queued_total", "Mail written to the outbox, by kind", ["kind"], registry),
    mailSent: counter("optigate_mail_sent_total", "Mail accepted by the mail server, by kind", ["kind"], registry),
    mailFailed: counter("optigate_mail_failed_total", "Mail given up on for good, by kind", ["kind"], registry),
    mailOldestWaiting: new Gauge({
      name: "optigate_mail_oldest_waiting_seconds",
      help: "Age of the oldest mail waiting in the outbox (0: none; NaN: the database did not answer)",
      registers: [registry],
    }),
    protocolErrors: counter(
      "optigate_protocol_errors_total",
      "OAuth error responses by error code",
      ["error"],
      registry,
    ),
    catalogBytes: counter(
      "optigate_catalog_bytes_streamed_total",
      "Bytes of sub-catalog documents streamed",
      [],
      registry,
    ),
    catalogArticlePages: counter(
      "optigate_catalog_article_pages_read_total",
      "Pages of catalog articles read from the database (one statement each)",
      [],
      registry,
    ),
    poolConnections: new Gauge({
      name: "optigate_db_pool_connections",
      help: "PostgreSQL pool connections by state (total, idle, waiting)",
      labelNames: ["state"],
      registers: [registry],
    }),
  };
}

export const metrics = processCache("metrics", create);

export const grantLabel = (grant: string | undefined): GrantLabel =>
  grant === undefined ? "none" : (GRANTS as readonly string[]).includes(grant) ? (grant as GrantLabel) : "other";

/** Counts the tokens of a response that the client did not bring itself. */
export function countIssuedTokens(
  grant: GrantLabel | "implicit",
  issued: Partial<Record<(typeof TOKEN_TYPES)[number], unknown>>,
): void {
  for (const token of TOKEN_TYPES) if (issued[token]) metrics.tokensIssued.inc({ grant, token });
}

export const countSignIn = (factor: SignInFactor, result: SignInResult) => metrics.signIns.inc({ factor, result });

/** `reason`: the refusal's code (lib/second-factor/second-factor-error.ts), a fixed set. */
export const countSecondFactorFailure = (factor: SecondFactorLabel, reason: string) =>
  metrics.secondFactorFailures.inc({ factor, reason });

export const countLockout = (lockout: Lockout) => metrics.lockouts.inc(lockout);

export const countDeviceStep = (step: DeviceStep) => metrics.deviceAuthorizations.inc({ step });

export const countBreachCheck = (result: BreachCheckResult) => metrics.passwordBreachChecks.inc({ result });

/** Mail a committed change queued, by kind (kinds are the code's template names). */
export function countQueuedMail(kinds: Iterable<string>): void {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  for (const [kind, count] of counts) metrics.mailQueued.inc({ kind }, count);
}
