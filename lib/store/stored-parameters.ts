/**
 * Request parameters at rest (pushed requests, consent prompts): JSON name-value pairs, so that a parameter may
 * repeat (RFC 8707 `resource`). Rows written before as a JSON object read the same.
 */
export const parametersJson = (parameters: Iterable<[string, string]>): string => JSON.stringify([...parameters]);

export const parametersOfJson = (json: string): URLSearchParams =>
  new URLSearchParams(JSON.parse(json) as string[][] | Record<string, string>);
