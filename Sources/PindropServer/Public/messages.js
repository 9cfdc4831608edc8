// Pindrop web app: the sentences a person reads when something fails. The server's error messages are written
// for developers (which provider, which limit, which setting); the page says what happened and what to do.

/**
 * What a person reads when a call fails: a plain sentence from the error's code, never the server's text for
 * developers (exception names, URLs, command-line flags). The server's message is kept on the error as
 * `detail` (for the console), and is shown as it is only where it is about what the person asked for
 * (a rejected input, something not found, a full list).
 */
export function userMessage(code, serverMessage, retryAfter) {
  const provider = providerOf(serverMessage);
  const inSeconds = retryAfter > 0 ? " Try again in " + retryAfter + (retryAfter === 1 ? " second." : " seconds.") : " Try again in a moment.";
  switch (code) {
    case "invalid_input": case "not_found": case "limit_reached": case "too_large":
      return sentence(serverMessage) || "The server could not take that request.";
    case "upstream_failed": case "unreadable_data":
      return providerTrouble(provider || "The online service", code) + ". Try again in a moment, or pick another provider.";
    case "rate_limited":
      return providerTrouble(provider || "The online service", code) + "." + inSeconds;
    case "unauthorized":
      return "This server keeps saved places for each person: open Saved places (the star) to enter your token.";
    case "too_many_requests":
      return "That was a lot of changes in a short time." + inSeconds;
    case "overloaded":
      return "The server is busy." + inSeconds;
    case "not_configured":
      return "This is not set up on this server. Ask whoever runs it to turn it on.";
    case "index_unavailable":
      return "The server's place index is not available right now. Try again in a moment.";
    case "network":
      return "The Pindrop server cannot be reached. Check your connection and try again.";
    default:
      return "Something went wrong on the server. Try again in a moment.";
  }
}

/** "Photon" from "Photon: did not answer within 5 s"; null when the message names no one. */
function providerOf(message) {
  const match = /^([A-Z][\w .()-]{0,40}?):\s/.exec(message || "");
  return match ? match[1] : null;
}

/** The server's sentence with a capital letter and a full stop. */
function sentence(text) {
  if (!text) return "";
  const t = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(t) ? t : t + ".";
}

/** What went wrong with an online provider, as a clause: "Photon is not answering right now". */
export function providerTrouble(name, code) {
  if (code === "rate_limited") return name + " is busy and asked Pindrop to slow down";
  if (code === "unreadable_data") return name + " sent an answer Pindrop cannot read";
  return name + " is not answering right now";
}
