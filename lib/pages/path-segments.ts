/** Dynamic path segments as pages receive them: percent-encoded, possibly badly. */

/** The decoded segment, or undefined when its percent-encoding is broken (`%ZZ`): such a path names nothing. */
export function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
