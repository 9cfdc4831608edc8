// Pindrop web app: whose saved places and recent addresses. A server shared by several people knows each by a token
// (`pindrop users add NAME` prints one). Every /v1/saved and /v1/recent call goes through userApi: it sends the
// token kept in localStorage, and when the server answers 401 it asks for the token in a dialog (once: calls made
// while it is open wait for the same answer), checks it with the server, keeps it and tries again.
import { $ } from "./dom.js";
import { api } from "./api.js";

const storageKey = "pindrop.token";
const dialog = $("token-dialog");
const input = $("token-input");
const problem = $("token-error");
let asking = null;        // the open dialog's answer: the token, or null when the person cancels
let resolveAsking = null;
let pageToken = null;     // the accepted token, for this page when localStorage is off
let declined = false;     // cancelled: calls the person did not start themselves stop asking

export function initAccount() {
  $("token-form").addEventListener("submit", (event) => { event.preventDefault(); check(); });
  $("token-cancel").addEventListener("click", () => answer(null));
  dialog.addEventListener("cancel", (event) => { event.preventDefault(); answer(null); });
}

/** The kept token, or null. */
export function keptToken() {
  try { return localStorage.getItem(storageKey) || pageToken; } catch (error) { return pageToken; }
}

/** Forgets the kept token on this browser; the next call that needs one asks again. */
export function forgetToken() {
  dropToken();
  declined = false;
}

function dropToken() {
  try { localStorage.removeItem(storageKey); } catch (error) { /* storage off: nothing was kept there */ }
  pageToken = null;
}

/** `api` for the user's own data: with the kept token, and on a 401 the token dialog, then once more. `asked`:
 *  the person started this call (Save, the saved list), so it asks even after they cancelled the dialog. */
export async function userApi(path, options = {}, asked = false) {
  const token = keptToken();
  try {
    return await api(path, withToken(options, token));
  } catch (error) {
    if (error.status !== 401) throw error;
    if (token && token === keptToken()) dropToken();   // refused (the user was removed): never send it again
    if (declined && !asked) throw error;
    if (!(await askToken())) throw error;
    return api(path, withToken(options, keptToken()));
  }
}

function withToken(options, token) {
  if (!token) return options;
  return { ...options, headers: { ...(options.headers || {}), Authorization: "Bearer " + token } };
}

/** Opens the dialog (or joins the open one); resolves with the accepted token, or null. */
function askToken() {
  if (!asking) {
    asking = new Promise((resolve) => { resolveAsking = resolve; });
    input.value = "";
    problem.hidden = true;
    dialog.showModal();
    input.focus();
  }
  return asking;
}

function answer(token) {
  if (!asking) return;
  dialog.close();
  declined = token === null;
  asking = null;
  resolveAsking(token);
}

/** Asks the server whether it knows the token typed; keeps it when it does, says so in the dialog when not. */
async function check() {
  const token = input.value.trim();
  if (!token) return showProblem("Paste the token you were given.");
  $("token-ok").disabled = true;
  try {
    await api("/v1/saved?limit=1", withToken({}, token));
    pageToken = token;
    try { localStorage.setItem(storageKey, token); } catch (error) { /* kept for this page only */ }
    answer(token);
  } catch (error) {
    showProblem(error.status === 401 ? "This server does not know that token. Check it and try again." : error.message);
  } finally {
    $("token-ok").disabled = false;
  }
}

function showProblem(text) {
  problem.textContent = text;
  problem.hidden = false;
  input.select();
}
