// Pindrop web app: the one way to call the Pindrop server. Every call adds the chosen provider (providers.js),
// turns a failure into an Error that carries the server's own message (or a plain one when the server cannot be
// reached), and lets the page credit whoever answered.
import { withProvider, answered } from "./providers.js";

/** Fetches `path` and returns the Response when it is 2xx; otherwise throws an Error with the server's message
 *  and the HTTP `status`. For answers read in their own way (an event stream); everything else uses `api`. */
export async function request(path, options) {
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new Error("Cannot reach the Pindrop server. Is it still running?");
  }
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    const error = new Error(body && body.error && body.error.message ? body.error.message : "The server answered " + response.status + ".");
    error.status = response.status;
    throw error;
  }
  return response;
}

/** Calls the API and returns its JSON body (null for 204 No Content or a body that is not JSON). */
export async function api(path, options) {
  path = withProvider(path);
  const response = await request(path, options);
  if (response.status === 204) return null;
  const body = await response.json().catch(() => null);
  answered(path, body);
  return body;
}
