/**
 * LOG_FORMAT=pretty, the demo's terminal: each log line as one line of text for a person watching it. A request is
 * `GET /portal/catalogs 200 34 ms`; static files (scripts, styles, fonts, icons) and the router's prefetches of links
 * are left out, so that what remains is one line per page or API call. Anything else is its message, warnings and
 * errors with their level and an error's stack. JSON stays the default: it is what log collectors read.
 */

/** Next.js's build files, and any path that names a file of the kinds a page loads beside itself. */
const STATIC_FILE = /^\/_next\/|\.(?:js|mjs|css|map|woff2?|ttf|otf|ico|svg|png|jpe?g|gif|webp|avif)$/i;

interface LogRecord {
  level?: string;
  msg?: string;
  method?: string;
  path?: string;
  status?: number;
  durationMs?: number;
  prefetch?: boolean;
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
}

function requestLine(record: LogRecord): string | undefined {
  if (record.prefetch || STATIC_FILE.test(record.path ?? "")) return undefined;
  return `${record.method} ${record.path} ${record.status} ${Math.round(record.durationMs ?? 0)} ms`;
}

/** A JSON log line as text, or undefined for a line the terminal leaves out. */
export function prettyLine(json: string): string | undefined {
  let record: LogRecord;
  try {
    record = JSON.parse(json) as LogRecord;
  } catch {
    return json.trimEnd();
  }
  if (record.msg === "request" && record.method !== undefined) return requestLine(record);
  const { level, time: _time, msg, err, ...fields } = record;
  const text = msg || JSON.stringify(fields);
  const stack = err?.stack ? `\n  ${err.stack.replace(/\n/g, "\n  ")}` : err?.message ? ` (${err.message})` : "";
  return `${level === "info" || level === undefined ? "" : `${level}: `}${text}${stack}`;
}

/** A stream for pino that writes each line as prettyLine has it, at once (a terminal, so nothing is batched). */
export const prettyStream = {
  write(line: string): void {
    const text = prettyLine(line);
    if (text !== undefined) process.stdout.write(`${text}\n`);
  },
};
