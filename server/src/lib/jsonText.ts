/**
 * A response body already serialised: routes return it for answers assembled from JSON kept per
 * version (the challenge board, notices), so that the same bytes are not rebuilt for every request.
 * The text must be what `JSON.stringify` of the route's response schema would give.
 */
export class JsonText {
  constructor(readonly text: string) {}
}
