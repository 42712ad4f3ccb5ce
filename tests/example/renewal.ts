/**
 * When the example renews its access token in the browser test: this long after OptiGate issued it (the example's
 * REFRESH_MARGIN_SECONDS is the rest of the token's hour). Long enough for the first page view after sign-in to come
 * before it on a slow machine, short enough for the test to wait for it.
 */
export const ACCESS_TOKEN_SECONDS = 3600;
export const RENEWAL_DUE_AFTER_SECONDS = 10;
