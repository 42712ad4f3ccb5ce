#!/usr/bin/env bash
# The browser tests against plain `next start` (no start script, as where only Next.js serves) on a PostgreSQL
# database made for this run and dropped afterwards. Needs a build (`npm run test:e2e:next` makes one).
# POSTGRES_ADMIN_URL names the server's maintenance database (default: the local test database).
set -euo pipefail
admin_url="${POSTGRES_ADMIN_URL:-postgresql://postgres@127.0.0.1:5432/test}"
database="optigate_e2e_next_$$"
psql_admin() { psql "$admin_url" -v ON_ERROR_STOP=1 -qc "$1"; }
trap 'psql_admin "DROP DATABASE IF EXISTS \"$database\" WITH (FORCE)" || true' EXIT
psql_admin "CREATE DATABASE \"$database\""
E2E_SERVER=next E2E_DATABASE_URL="${admin_url%/*}/$database" DEMO_DATA=1 npx playwright test "$@"
