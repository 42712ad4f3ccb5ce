/** The parameters of an RP-Initiated Logout request that the sign-out page carries over to its confirmation. */
export const END_SESSION_PARAMETERS = [
  "id_token_hint",
  "client_id",
  "post_logout_redirect_uri",
  "state",
  "ui_locales",
] as const;
