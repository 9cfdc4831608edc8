// Pindrop web app: the one way to call the Pindrop server. Every call adds the chosen provider (providers.js),
// turns a failure into an Error whose message a person can read (userMessage), and lets the page credit whoever
// answered.
import { withProvider, answered } from "./providers.js";
import { userMessage } from "./messages.js";

/** Fetches `path` and returns the Response when it is 2xx; otherwise throws an Error whose message is for the
 *  person (`userMessage`), with the HTTP `status`, the error `code` and the server's own text as `detail`.
 *  For answers read in their own way (an event stream); everything else uses `api`. */
export async function request(path, options) {
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    if (error && error.name === "AbortError") throw error;
    throw Object.assign(new Error(userMessage("network")), { code: "network" });
  }
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    const e = body && body.error ? body.error : {};
    const retryAfter = parseInt(response.headers.get("Retry-After") || "", 10);
    const error = new Error(userMessage(e.code, e.message, retryAfter));
    error.status = response.status;
    error.code = e.code || null;
    error.detail = e.message || null;
    throw error;
  }
  return response;
}

/** The reader's languages, best first, as the browser has them ("de-CH,de,en"): the `lang` of every question whose
 *  answer names places, so that names come in the reader's language where the data has them. */
const LANGUAGES = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language])
  .filter(Boolean).join(",");

/** `path` with `lang` added when it asks for places by name or by point. */
function withLanguage(path) {
  if (!LANGUAGES || !/^\/v1\/(search|suggest|reverse|places\/)/.test(path)) return path;
  return path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(LANGUAGES);
}

/** Calls the API and returns its JSON body (null for 204 No Content or a body that is not JSON). */
export async function api(path, options) {
  path = withLanguage(withProvider(path));
  const response = await request(path, options);
  if (response.status === 204) return null;
  const body = await response.json().catch(() => null);
  answered(path, body);
  return body;
}
