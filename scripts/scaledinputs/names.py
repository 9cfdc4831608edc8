"""Letters of the input, and how a copy respells a row's names (scripts/make-scaled-inputs.py)."""
import gzip
import unicodedata

SPECIAL_FOLD = {"ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "ı": "i", "þ": "th",
                "ħ": "h", "ə": "e"}


def open_text(path):
    return gzip.open(path, "rt", encoding="utf-8", newline="\n") if path.endswith(".gz") \
        else open(path, encoding="utf-8", newline="\n")


class Letters:
    """Per-character facts for every character of the input: its fold as the index folds it (when that is
    one character: then spellings that differ only by marks or case line up position by position), its
    class (script and case) when it is a letter, its form without marks, and for each class a pool of
    letters drawn with the frequencies they have in the input."""

    POOL = 4096  # a power of two: draws pick from it with a bit mask

    def __init__(self, counts, seed):
        import numpy as np
        self.fold1 = {}       # translate table: ord → one-character fold (others map to themselves)
        self.cls = {}         # letter → class number
        self.plain = {}       # letter → the same letter without marks, case kept
        by_class = {}
        for ch in sorted(counts):
            low = ch.lower()
            f = SPECIAL_FOLD.get(low)
            if f is None:
                f = "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))
            if len(f) == 1 and f != ch:
                self.fold1[ord(ch)] = f
            cat = unicodedata.category(ch)
            if cat[0] == "L":
                try:
                    script = unicodedata.name(ch).split(" ")[0]
                except ValueError:
                    script = "?"
                by_class.setdefault((script, cat), []).append(ch)
                s = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
                self.plain[ch] = s if len(s) == 1 else ch
        rng = np.random.default_rng([seed, 2])
        self.pools = []
        for number, key in enumerate(sorted(by_class)):
            chars = by_class[key]
            weights = np.array([counts[c] for c in chars], dtype=float)
            picks = rng.choice(len(chars), size=self.POOL, p=weights / weights.sum())
            self.pools.append([chars[i] for i in picks])
            for ch in chars:
                self.cls[ch] = number


class RowNames:
    """The spellings of one row (name, asciiname, alternate names), grouped by folded key position by
    position, with the letter positions each group may edit and their letter pools."""
    __slots__ = ("distinct", "slots", "groups", "name_group", "need")

    def __init__(self, name, ascii_name, alternates, letters):
        self.distinct = []
        position = {}
        self.slots = []
        for s in [name, ascii_name] + alternates:
            i = position.get(s)
            if i is None:
                i = position[s] = len(self.distinct)
                self.distinct.append(s)
            self.slots.append(i)
        groups = {}
        for i, s in enumerate(self.distinct):
            groups.setdefault(s.translate(letters.fold1), []).append(i)
        self.groups = []
        self.name_group = -1
        cls, pools = letters.cls, letters.pools
        for members in groups.values():
            rep = self.distinct[members[0]]
            editable = [p for p in range(1, len(rep)) if rep[p] in cls]
            if not editable and rep and rep[0] in cls:
                editable = [0]
            if editable:
                if members[0] == 0:
                    self.name_group = len(self.groups)
                n = len(editable)
                edits = 1 if n < 8 else 2 if n < 14 else 3
                self.groups.append((members, editable, [pools[cls[rep[p]]] for p in editable], edits))
        # The most random numbers one copy can use.
        self.need = sum(g[3] * (6 if i == self.name_group else 1) for i, g in enumerate(self.groups))

    def perturbed(self, draws, at, plain, avoid_name):
        """New spellings (in the row's order) for one copy, using random numbers draws[at:]; the name
        avoids `avoid_name` when it can. Returns (spellings, next at)."""
        distinct = self.distinct
        out = list(distinct)
        name_group = self.name_group
        for g, (members, editable, pools, edits) in enumerate(self.groups):
            rep = distinct[members[0]]
            n = len(editable)
            for attempt in range(6 if g == name_group else 1):
                if edits == 1:
                    r = draws[at]
                    at += 1
                    i = r % n
                    pool = pools[i]
                    p = editable[i]
                    new = pool[(r >> 24) & 4095]
                    if new == rep[p]:
                        new = pool[(r >> 36) & 4095]
                    changes = ((p, new),)
                else:
                    changes = []
                    taken = []
                    for e in range(edits):
                        r = draws[at]
                        at += 1
                        i = r % n
                        while i in taken:
                            i = (i + 1) % n
                        taken.append(i)
                        pool = pools[i]
                        p = editable[i]
                        new = pool[(r >> 24) & 4095]
                        if new == rep[p]:
                            new = pool[(r >> 36) & 4095]
                        changes.append((p, new))
                if len(members) == 1:
                    for p, new in changes:
                        rep = rep[:p] + new + rep[p + 1:]
                    out[members[0]] = rep
                    rep = distinct[members[0]]
                else:
                    for m in members:
                        s = distinct[m]
                        for p, new in changes:
                            old = s[p]
                            if old != rep[p]:  # the same letter without marks, or in the other case
                                new = plain.get(new, new)
                                new = new.upper() if old.isupper() else new.lower()
                            s = s[:p] + new + s[p + 1:]
                        out[m] = s
                if g != name_group or out[0] not in avoid_name:
                    break
        return [out[i] for i in self.slots], at
