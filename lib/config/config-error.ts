/** A bad or missing setting, named by its variable, so that start-up can stop with a single clear line. */
import { OptiGateError } from "@/lib/errors/optigate-error";

export class ConfigError extends OptiGateError<"config_invalid"> {
  readonly code = "config_invalid";
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable} ${message}`);
  }
}
