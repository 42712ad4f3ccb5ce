/** The progress line of long CLI jobs: redrawn in place on a terminal, never drawn elsewhere; the summary always. */
import { describe, expect, it } from "vitest";
import { progressReporter } from "@/lib/cli/progress";

const ERASE = "\x1b[K";

/** A reporter on a stand-in stream with a clock the test moves; what it drew and what it printed. */
function reporterAt(
  isTTY: boolean,
  options: { total?: number; columns?: number; noun?: string; plural?: string } = {},
) {
  let clock = 1_000;
  const drawn: string[] = [];
  const printed: string[] = [];
  const stream = { isTTY, columns: options.columns, write: (text: string) => drawn.push(text) };
  const reporter = progressReporter(stream, {
    label: "import",
    noun: options.noun ?? "article",
    plural: options.plural,
    total: options.total,
    print: (line) => printed.push(line),
    now: () => clock,
  });
  /** `ms` after the start. */
  const setClock = (ms: number) => (clock = 1_000 + ms);
  const at = (ms: number, done: number, total?: number) => {
    setClock(ms);
    reporter.update(done, total);
  };
  const finishAt = (ms: number, summary?: string) => {
    setClock(ms);
    reporter.finish(summary);
  };
  return { reporter, drawn, printed, setClock, at, finishAt };
}

describe("progress on a terminal", () => {
  it("redraws the count of the total, the rate and the time left in place, at most every 100 ms", () => {
    const { drawn, printed, at, finishAt } = reporterAt(true, { total: 200_000 });
    at(40, 1_000); // sooner than one redraw after the start
    at(1_000, 20_000);
    at(1_050, 21_000); // sooner than one redraw after the last
    at(4_000, 100_000);
    at(8_000, 200_000);
    finishAt(8_000, "Imported 200,000 articles.");
    expect(drawn).toEqual([
      `\rimport: 20,000 of 200,000 articles (10%), 20,000/s, 9.0 s left${ERASE}`,
      `\rimport: 100,000 of 200,000 articles (50%), 25,000/s, 4.0 s left${ERASE}`,
      `\rimport: 200,000 of 200,000 articles (100%), 25,000/s${ERASE}`,
      `\rimport: 200,000 articles in 8.0 s (25,000/s)${ERASE}\n`,
    ]);
    expect(printed).toEqual(["Imported 200,000 articles."]);
  });

  it("shows counts and rate without a total, and minutes for long jobs", () => {
    const { drawn, at, finishAt } = reporterAt(true, { noun: "person", plural: "people" });
    at(500, 1);
    at(2_000, 3);
    at(75_000, 150_000);
    finishAt(80_000, "Done.");
    expect(drawn).toEqual([
      `\rimport: 1 person, 2.0/s${ERASE}`,
      `\rimport: 3 people, 1.5/s${ERASE}`,
      `\rimport: 150,000 people, 2,000/s${ERASE}`,
      `\rimport: 150,000 people in 1 min 15 s (2,000/s)${ERASE}\n`,
    ]);
  });

  it("takes a total the job tells later; no rate before the first unit, no time left past an estimated total", () => {
    const { drawn, at } = reporterAt(true);
    at(500, 0, 10);
    at(1_000, 4);
    at(2_000, 12);
    expect(drawn).toEqual([
      `\rimport: 0 of 10 articles (0%)${ERASE}`,
      `\rimport: 4 of 10 articles (40%), 4.0/s, 1.5 s left${ERASE}`,
      `\rimport: 12 of 10 articles (100%), 6.0/s${ERASE}`,
    ]);
  });

  it("erases the line when the job ends without a summary (a failure), and prints nothing", () => {
    const { drawn, printed, at, finishAt } = reporterAt(true);
    at(300, 5);
    finishAt(400);
    expect(drawn).toEqual([`\rimport: 5 articles, 17/s${ERASE}`, `\r${ERASE}`]);
    expect(printed).toEqual([]);
  });

  it("clears the line before a failing job's error, and passes the error on", async () => {
    const { reporter, drawn, at } = reporterAt(true);
    at(500, 3);
    const failure = new Error("disk full");
    await expect(
      reporter.track(async (onProgress) => {
        onProgress(7);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(drawn).toEqual([`\rimport: 3 articles, 6.0/s${ERASE}`, `\r${ERASE}`]);
  });

  it("draws nothing for a job quicker than one redraw: only the summary is printed", () => {
    const { drawn, printed, at, finishAt } = reporterAt(true, { total: 3 });
    at(30, 3);
    finishAt(60, "Applied: 0001, 0002, 0003");
    expect(drawn).toEqual([]);
    expect(printed).toEqual(["Applied: 0001, 0002, 0003"]);
  });

  it("keeps the line within the terminal's width, so that it never wraps", () => {
    const { drawn, at } = reporterAt(true, { columns: 20 });
    at(200, 123_456);
    expect(drawn).toEqual([`\rimport: 123,456 art${ERASE}`]);
  });

  it("reports the job's counts to the listener that track passes, and returns the job's result", async () => {
    const { reporter, drawn, setClock } = reporterAt(true);
    const result = await reporter.track(async (onProgress) => {
      setClock(500);
      onProgress(5);
      return "result";
    });
    expect(result).toBe("result");
    expect(drawn).toEqual([`\rimport: 5 articles, 10/s${ERASE}`]);
  });
});

describe("progress elsewhere (a pipe, a log, cron)", () => {
  it("draws nothing however long the job runs, and prints only the summary line", () => {
    const { drawn, printed, at, finishAt } = reporterAt(false, { total: 100 });
    for (let step = 1; step <= 100; step++) at(step * 200, step);
    finishAt(20_000, "Removed 100 rows.");
    expect(drawn).toEqual([]);
    expect(printed).toEqual(["Removed 100 rows."]);
  });

  it("prints nothing at all for a job that ends without a summary", () => {
    const { drawn, printed, at, finishAt } = reporterAt(false);
    at(5_000, 10);
    finishAt(5_000);
    expect([drawn, printed]).toEqual([[], []]);
  });
});
