// Pindrop web app: which mode the page is in. Search (the results and a chosen place), the centre pin, Near me,
// Music and the saved places each draw their own things on the map and in the panel, and only one is on at a time:
// each registers how it is entered and left, and entering one leaves the one that was on. No mode reaches into
// another; this module is the only one that knows them all.
const modes = new Map();   // name → {enter, leave}
let current = null;        // the name of the mode that is on, null for none

/** Registers a mode: `enter` turns it on (optional: some draw only once they have an answer), `leave` takes away
 *  everything it drew and stops what it still runs. */
export function registerMode(name, { enter = () => {}, leave }) {
  modes.set(name, { enter, leave });
}

/** Turns `name` on, leaving the mode that was on; nothing when it is on already. */
export function enterMode(name) {
  if (current === name) return;
  leaveMode(current);
  current = name;
  modes.get(name).enter();
}

/** Turns `name` off when it is on: then no mode is. */
export function leaveMode(name) {
  if (name === null || current !== name) return;
  current = null;
  modes.get(name).leave();
}

/** The mode that is on ("search", "centerpin", "nearme", "music", "saved"), or null. */
export function currentMode() {
  return current;
}
