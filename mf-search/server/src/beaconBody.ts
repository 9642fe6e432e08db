/**
 * A request body as JSON: beacons (`navigator.sendBeacon` with a string) arrive as `text/plain`,
 * their JSON in the text; a JSON body is parsed already. Text that is not JSON gives `undefined`
 * (the route's validation then refuses it).
 */
export function parseBeaconBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
