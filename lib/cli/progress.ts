/**
 * The progress of a long CLI job (purge, catalog import, users import, migrations) for the person at the terminal:
 * one line on stderr with the count, the rate and, when the total is known, the share done and the time left, redrawn
 * in place at most every 100 ms. Where stderr is no terminal (cron, CI, a pipe) nothing is drawn, so a log holds no
 * redraws, only the job's summary line. That line goes through the reporter so that it is printed after the progress
 * line has been ended, never into the middle of it.
 */
import type { ProgressListener } from "@/lib/observability/progress";

/** Where the progress is drawn: process.stderr, or a test's stand-in. */
export interface ProgressStream {
  isTTY?: boolean;
  /** The terminal's width: a longer line would wrap, and "\r" would then redraw only its last part. */
  columns?: number;
  write(text: string): unknown;
}

interface ProgressOptions {
  /** What runs, at the start of the line: "purge", "catalogs import spring.xml". */
  label: string;
  /** The unit counted, and its plural when that is not just an added s. */
  noun: string;
  plural?: string;
  /** How many in all, when known up front (a job may also tell it with its first update). */
  total?: number;
  /** Where finish() writes the summary line: stdout, unless the command's stdout is JSON. */
  print: (line: string) => void;
  /** Milliseconds; tests pass their own clock. */
  now?: () => number;
}

interface ProgressReporter {
  update: ProgressListener;
  /** Runs the job with `update` as its listener; should it throw, the line is cleared so that the error reads clean. */
  track<T>(job: (onProgress: ProgressListener) => Promise<T>): Promise<T>;
  /** Ends the line (with the time taken and the rate when a summary follows; erased without) and prints `summary`. */
  finish(summary?: string): void;
}

const REDRAW_MS = 100;
const ERASE_TO_END = "\x1b[K";

const number = (value: number) => Math.round(value).toLocaleString("en-US");
/** Whole numbers, but one decimal below 10: one migration in 3 s is 0.3/s, not 0/s. */
const perSecond = (value: number) => (value < 10 ? value.toFixed(1) : number(value));

function duration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

export function progressReporter(stream: ProgressStream, options: ProgressOptions): ProgressReporter {
  const now = options.now ?? (() => performance.now());
  const started = now();
  let lastDrawn = started;
  let lastCounted = started;
  let drawn = false;
  let done = 0;
  let total = options.total;
  const units = (count: number) => (count === 1 ? options.noun : (options.plural ?? `${options.noun}s`));

  function draw(text: string, end = ""): void {
    const width = stream.columns ? stream.columns - 1 : undefined;
    stream.write(`\r${text.slice(0, width)}${ERASE_TO_END}${end}`);
  }

  function runningLine(elapsed: number): string {
    const rate = done / (elapsed / 1000);
    // Before the first unit there is no rate yet (a job may take a while to find its total), and no time left.
    const speed = done > 0 ? `, ${perSecond(rate)}/s` : "";
    if (total === undefined) return `${options.label}: ${number(done)} ${units(done)}${speed}`;
    const share = total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 100;
    // A total counted ahead may be an estimate that the job outgrows: then there is no time left to show.
    const left = done > 0 && done < total ? `, ${duration((1000 * (total - done)) / rate)} left` : "";
    return `${options.label}: ${number(done)} of ${number(total)} ${units(total)} (${share}%)${speed}${left}`;
  }

  const update: ProgressListener = (count, newTotal) => {
    done = count;
    if (newTotal !== undefined) total = newTotal;
    if (!stream.isTTY) return;
    lastCounted = now();
    if (lastCounted - lastDrawn < REDRAW_MS) return;
    lastDrawn = lastCounted;
    drawn = true;
    draw(runningLine(lastCounted - started));
  };

  function finish(summary?: string): void {
    // A job quicker than one redraw showed nothing, and ends with nothing either.
    if (drawn && summary === undefined) draw("");
    if (drawn && summary !== undefined) {
      // Timed to the last count: what a command does after it (the demo data after the migrations) was not counted.
      const elapsed = lastCounted - started;
      const rate = perSecond(done / (elapsed / 1000));
      draw(`${options.label}: ${number(done)} ${units(done)} in ${duration(elapsed)} (${rate}/s)`, "\n");
    }
    drawn = false;
    if (summary !== undefined) options.print(summary);
  }

  async function track<T>(job: (onProgress: ProgressListener) => Promise<T>): Promise<T> {
    try {
      return await job(update);
    } catch (error) {
      finish();
      throw error;
    }
  }

  return { update, track, finish };
}
