/**
 * OptiGate's lifetimes and limits in one place: how long codes, tokens, tickets, sessions and interactions live, what
 * each process caches and for how long, the sign-in lock-outs, and the largest bodies and values taken from callers.
 * The reasoning behind each number is in docs/ (security and operations); change a number here, nowhere else.
 */

// --- How long things live, and the clock skew allowed when checking times.

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
export const ID_TOKEN_LIFETIME_SECONDS = 3600;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 365 * 24 * 3600;
export const ROTATION_GRACE_SECONDS = 10;
export const CODE_LIFETIME_SECONDS = 5 * 60;
export const INTERACTION_LIFETIME_SECONDS = 15 * 60;
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;
export const TICKET_LIFETIME_SECONDS = 8 * 3600;
export const SEALED_COOKIE_SECONDS = 120;
/** Longest lifetime of a token signed by these keys (access and ID tokens: one hour), plus clock skew. */
export const KEY_RETENTION_SECONDS = 3600 + 300;
export const MAX_CLIENT_ASSERTION_LIFETIME_SECONDS = 300;
export const MAX_FEDERATED_LIFETIME_SECONDS = 3600;
/** A company provider's back-channel logout token is taken this long after its iat; its jti is kept as long. */
export const MAX_LOGOUT_TOKEN_AGE_SECONDS = 300;
export const CLOCK_LEEWAY_SECONDS = 60;
export const API_CLOCK_LEEWAY_SECONDS = 60;
/** A DPoP proof's iat may be this far from the server's clock either way; its jti is kept as long (RFC 9449 §11.1). */
export const DPOP_PROOF_WINDOW_SECONDS = 60;
/** A server-provided DPoP nonce is valid for the period it was issued in and the next one (RFC 9449 §8). */
export const DPOP_NONCE_PERIOD_SECONDS = 300;
/** RFC 9126 §2.2: the user agent must bring a request_uri within this time; then the sign-in's time applies. */
export const PUSHED_REQUEST_LIFETIME_SECONDS = 60;
/** An import older than this that is still incomplete was cut off (imports of 200,000 articles take seconds). */
export const ABANDONED_IMPORT_MS = 60 * 60 * 1000;
/** The longest a software vendor's client secret lives, and how long one its application gets by API lives. */
export const LONGEST_PARTNER_SECRET_DAYS = 2 * 366;

// --- What each process caches, and for how long (changes made in the same process are seen at once).

export const CLIENT_CACHE_SECONDS = 5;
/** As long as clients are cached (client-store.ts), which drop this cache whenever they change. */
export const CORS_CACHE_SECONDS = 5;
export const ISSUER_CACHE_SECONDS = 5;
export const KEY_CACHE_SECONDS = 60;
export const USER_CACHE_SECONDS = 5;
export const MAX_CACHED_USERS = 10_000;
export const MAX_CACHED_FEDERATED_USERS = 10_000;
/**
 * Tokens whose signature was checked, by database: a resource server sees the same token on call after call, and
 * checking an ES256 signature costs more than the rest of a catalog list. Expiry is checked on every use; the
 * oldest entries make room once this many are kept.
 */
export const MAX_CACHED_VERIFIED_TOKENS = 10_000;
/** Anonymous documents by query, as of one version of the published list; at most this many. */
export const MAX_CACHED_CATALOG_QUERIES = 256;
export const KEY_SET_REFETCH_INTERVAL_MS = 60_000;
export const KEY_SET_MAX_AGE_MS = 3600_000;
/** A company identity provider's discovery and keys: a changed registration is a new entry anyway. */
export const COMPANY_SSO_DISCOVERY_CACHE_SECONDS = 300;

// --- Sign-in and client authentication throttles: attempts per window, and how long a lock-out lasts.

export const THROTTLE_WINDOW_SECONDS = 15 * 60;
export const LOGIN_LOCKOUT_SECONDS = 15 * 60;
export const MAX_FAILURES = { account: 5, address: 20 } as const;
/** The longest window PROOF_OF_WORK_WINDOW_MINUTES may set: the purge keeps throttle rows that long. */
export const LONGEST_PROOF_OF_WORK_WINDOW_SECONDS = 3600;
export const CLIENT_AUTH_LIMIT = 10;
export const CLIENT_AUTH_WINDOW_SECONDS = 15 * 60;
export const CLIENT_AUTH_LOCKOUT_SECONDS = 15 * 60;
/** Locks kept in memory at most; beyond that the expired ones are dropped. */
export const MAX_CLIENT_AUTH_LOCKS = 10_000;

// --- The largest bodies and the longest values OptiGate takes from callers: longer input is refused (or, where it
// is only a hint, dropped) before anything is written, so that no request can fill the database or the audit trail.

export const MAX_FORM_BYTES = 64 * 1024;
/** JSON bodies of the platform API: as large as forms. */
export const MAX_JSON_BYTES = 64 * 1024;
/**
 * The largest catalog file the page takes, uploaded or pulled from a URL (the CLI pulls as much; its files have no
 * limit); it is read as a stream, never held in memory.
 */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
export const MAX_JWT_LENGTH = 16_384;
/** A company provider's back-channel logout request: one logout token, its parameter name, and room. */
export const MAX_LOGOUT_REQUEST_BYTES = MAX_JWT_LENGTH + 1024;
export const MAX_KEY_SET_BYTES = 64 * 1024;
export const MAX_KEYS_IN_SET = 20;
/** Any answer of a company's identity provider: key sets and ID tokens with many groups fit several times over. */
export const MAX_COMPANY_SSO_ANSWER_BYTES = 256 * 1024;
/** An answer of a Pwned Passwords range API: some 800 to 2,000 lines of about 40 bytes, padding included. */
export const MAX_PASSWORD_BREACH_ANSWER_BYTES = 256 * 1024;
/** A software vendor's applications, whatever their status: an initial access token cannot fill the client table. */
export const MAX_PARTNER_APPLICATIONS = 100;
/**
 * The usable (neither disabled nor expired) secrets one of a vendor's applications may have: its registration access
 * token cannot fill the table.
 */
export const MAX_PARTNER_SECRETS = 20;
/** The email domains one company claims, verified or not: claims cannot fill the table or crowd out other companies. */
export const MAX_DOMAINS_PER_COMPANY = 20;
export const MAX_SUBJECT_LENGTH = 255;
export const MAX_CURSOR_LENGTH = 1024;
/** The longest email address there can be (RFC 5321 §4.5.3.1.3: a 256-octet path less its angle brackets). */
export const MAX_USERNAME_LENGTH = 254;
export const MAX_USER_AGENT_LENGTH = 300;
/** Client ids are 3 to 64 characters (lib/admin/client-metadata.ts). */
export const MAX_CLIENT_ID_LENGTH = 64;
/** Descriptions operators give secrets. */
export const MAX_DESCRIPTION_LENGTH = 200;
export const MAX_URI_LENGTH = 2000;
export const MAX_LIST_ENTRIES = 50;
/** The scope parameter of a request: every scope OptiGate knows fits many times over. */
export const MAX_SCOPE_PARAMETER_LENGTH = 1000;
/** A signed JWT passed back to OptiGate (id_token_hint). */
export const MAX_TOKEN_LENGTH = 8192;
/** A pushed authorization request's parameters as stored: an ID token hint and a claims request fit twice over. */
export const MAX_PUSHED_REQUEST_LENGTH = 16 * 1024;
/** Invitations a company's administrators send (operators are not limited): per company, and per administrator. */
export const INVITATION_LIMITS = {
  company: { max: 50, windowSeconds: 3600 },
  inviter: { max: 20, windowSeconds: 3600 },
} as const;
/**
 * Anyone may push for a public client: pushes per client network (an IPv4 address, an IPv6 /64) and per wider network
 * (/24, /48) a minute, and pushes waiting at most per public client.
 */
export const PUBLIC_PUSH_LIMIT = { max: 30, windowSeconds: 60 } as const;
export const PUBLIC_PUSH_WIDE_LIMIT = { max: 120, windowSeconds: 60 } as const;
export const MAX_WAITING_PUSHED_REQUESTS = 2_000;
/** A DPoP header longer than this is refused unread (RSA keys of 4,096 bits fit in about 1.5 KB). */
export const MAX_DPOP_PROOF_LENGTH = 8192;

// --- Devices that sign in with a code (RFC 8628): how long a request lives, how often its device may poll, and how
// many requests and user-code guesses OptiGate takes.

/** A device code and its user code live 10 minutes (RFC 8628 §3.2 expires_in). */
export const DEVICE_CODE_LIFETIME_SECONDS = 10 * 60;
/** The polling interval a device is told (RFC 8628 §3.2), and what each poll too early adds to it (§3.5). */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
export const DEVICE_SLOW_DOWN_SECONDS = 5;
/** An expired request is kept this long, so that a device still polling is told expired_token, not invalid_grant. */
export const DEVICE_EXPIRED_KEPT_SECONDS = 60 * 60;
/** Device authorization requests a minute per client and per client network (an IPv4 address, an IPv6 /64). */
export const DEVICE_AUTHORIZATION_LIMITS = {
  client: { max: 300, windowSeconds: 60 },
  address: { max: 10, windowSeconds: 60 },
} as const;
/** Requests waiting for a person's decision at most per client: what a flood of requests leaves is bounded. */
export const MAX_PENDING_DEVICE_AUTHORIZATIONS = 1_000;
/**
 * Wrong user codes entered at /device per window: per client address (an IPv4 address, an IPv6 /64), per wider
 * network (IPv4 /24, IPv6 /48), per sign-in session, per account, and across everyone (the last bounds guessing
 * however many addresses and accounts take part, at the price that a flood locks code entry for all;
 * docs/security.md). Reaching a limit locks that key for USER_CODE_LOCKOUT_SECONDS.
 */
export const USER_CODE_GUESS_LIMITS = { address: 10, network: 30, session: 5, account: 10, everyone: 1_000 } as const;
export const USER_CODE_GUESS_WINDOW_SECONDS = 15 * 60;
export const USER_CODE_LOCKOUT_SECONDS = 15 * 60;

// --- Webhooks (Standard Webhooks): how many endpoints an owner keeps, how a delivery is retried, and what is kept.

/** Endpoints per company, and the platform's own (the operator's). */
export const MAX_WEBHOOK_ENDPOINTS = 20;
/** A delivery is tried again after 30 s, 1 min, 2 min … at most 4 h apart, for 24 h; then it failed. */
export const WEBHOOK_FIRST_RETRY_SECONDS = 30;
export const WEBHOOK_LONGEST_RETRY_SECONDS = 4 * 3600;
export const WEBHOOK_RETRY_WINDOW_SECONDS = 24 * 3600;
/** Each POST to an endpoint until its answer's status line: the answer's body is never read. */
export const WEBHOOK_TIMEOUT_MS = 5000;
/**
 * Webhook attempts a worker claims and makes at once, apart from mail: an endpoint that never answers costs one
 * WEBHOOK_TIMEOUT_MS per batch, and no mail waits for it.
 */
export const WEBHOOK_CONCURRENCY = 10;
/** How long one outbox pass (the cron route's call) claims new batches; the rest waits for the next call. */
export const OUTBOX_PASS_BUDGET_MS = 20_000;
/**
 * Deliveries waiting for one endpoint: an event beyond them is not queued but logged at once as a failed delivery, so
 * that one owner's backlog stays bounded and its log shows what was lost (and may be replayed later).
 */
export const MAX_WAITING_WEBHOOK_DELIVERIES = 1000;
/** The error text kept of an attempt (payloads are bounded by their ids, each at most 200 characters). */
export const MAX_WEBHOOK_ERROR_LENGTH = 300;
/** Deliveries older than this are purged with the other expired rows. */
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 30;

// --- How long OptiGate waits for others.

export const KEY_SET_FETCH_TIMEOUT_MS = 5000;
/** A catalog file pulled from a supplier's URL, answer and body, imported as it arrives: 100 MB at 3 Mbit/s. */
export const CATALOG_PULL_TIMEOUT_MS = 5 * 60_000;
/** Catalog pulls the page runs at once per process (one per supplier company): each may hold a connection 5 minutes. */
export const MAX_CATALOG_PULLS = 4;
/** A scrape of /metrics waits this long for the database's readings, then reports them unknown (NaN). */
export const METRICS_DATABASE_TIMEOUT_MS = 1000;
export const BACKCHANNEL_TIMEOUT_MS = 2000;
/** A DNS lookup of a domain's verification record (lib/admin/domain-verification.ts), all tries together. */
export const DNS_VERIFICATION_TIMEOUT_MS = 5000;
/** Each request to a company's identity provider (discovery, keys, token, userinfo), answer and body. */
export const COMPANY_SSO_FETCH_TIMEOUT_MS = 5000;
/** A lookup of a new password among breached ones, answer and body; past it the estimator alone decides. */
export const PASSWORD_BREACH_TIMEOUT_MS = 2000;
/**
 * How long an idle kept-alive connection stays open. Node's 5 s is shorter than a caller's pause between two requests
 * often is (a client that ran a slow command in between), and a client that missed the close sends its next request
 * into a closed socket ("other side closed"); 65 s outlasts the idle timeouts of common proxies and clients.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

// --- Links mailed for a user's own account, and how often a reset may be asked for.

export const PASSWORD_RESET_LINK_MINUTES = 60;
/** How long an authenticator app waits for its first code, in the session that started it. */
export const TOTP_ENROLMENT_MINUTES = 15;
export const EMAIL_CONFIRM_LINK_HOURS = 24;
/** A sign-in notice's "not me" link: long enough for someone back from a week away to read their mail. */
export const SIGN_IN_NOTICE_LINK_DAYS = 7;
/** How long a browser remembers the accounts that signed in with it, and how many (the latest first). */
export const KNOWN_BROWSER_DAYS = 365;
export const KNOWN_BROWSER_ACCOUNTS = 5;
export const PASSWORD_RESET_WINDOW_SECONDS = 60 * 60;
/** Reset mails asked for per window: per account (whether it exists or not) and per client network. */
export const MAX_PASSWORD_RESETS = { account: 3, address: 20 } as const;
/** The longest page a reset may lead back to (an authorization request's URL, kept in a cookie); longer: the portal. */
export const MAX_RETURN_URL_LENGTH = 2000;
/** Requests for a new email address per user and window: each one mails two addresses. */
export const MAX_EMAIL_CHANGES = 5;
export const EMAIL_CHANGE_WINDOW_SECONDS = 60 * 60;
