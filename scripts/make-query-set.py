#!/usr/bin/env python3
"""Builds the accuracy query set (Tests/Fixtures/queries.tsv) from a GeoNames cities dump.

Deterministic (fixed seed). Each row: category, query, expected geonameid. A query is only kept when its
expected answer is unambiguous by the rules a person would apply: the most populous place with that name
(or with that name in that qualifier), so the set measures the engine, not coin flips.
Usage: scripts/make-query-set.py [cities500.txt[.gz]] [admin1CodesASCII.txt] [countryInfo.txt] > queries.tsv
"""
import bisect
import gzip
import random
import sys
import unicodedata
from collections import defaultdict

SPECIAL = {"ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "ı": "i", "þ": "th", "ħ": "h", "ə": "e"}
DROP = set("'`´ʻʼʽ‘’‛′")
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def fold(s):
    out = []
    for ch in s.lower():
        if ch in DROP:
            continue
        ch = SPECIAL.get(ch, ch)
        for c in unicodedata.normalize("NFKD", ch):
            if unicodedata.combining(c):
                continue
            out.append(c if c.isalnum() else " ")
    return " ".join("".join(out).split())


def top(places):
    return max(places, key=lambda p: p["pop"])


class Data:
    """The dump's places with their names folded, and the division and country names."""

    def __init__(self, cities, admin_path, country_path):
        self.admin = {}
        for line in open(admin_path, encoding="utf-8"):
            c = line.rstrip("\n").split("\t")
            if len(c) >= 2:
                self.admin[c[0]] = c[1]
        self.country = {}
        for line in open(country_path, encoding="utf-8"):
            if line.startswith("#"):
                continue
            c = line.rstrip("\n").split("\t")
            self.country[c[0]] = c[4]
        self.places = []
        opener = gzip.open if cities.endswith(".gz") else open
        for line in opener(cities, "rt", encoding="utf-8"):
            c = line.rstrip("\n").split("\t")
            alts = [a for a in c[3].split(",") if a]
            self.places.append(dict(id=int(c[0]), name=c[1], ascii=c[2], alts=alts, cc=c[8], a1=c[10], pop=int(c[14] or 0)))
        self.by_primary = defaultdict(list)   # folded primary/ascii name -> places
        self.by_any = defaultdict(list)       # any folded name -> places
        for p in self.places:
            prim = {fold(p["name"]), fold(p["ascii"])}
            for k in prim:
                self.by_primary[k].append(p)
            for k in prim | {fold(a) for a in p["alts"]}:
                self.by_any[k].append(p)


def exact(data, big):
    """Exact names: the most populous place of that name, and no more populous place has it as any name."""
    rows = []
    for p in big:
        k = fold(p["name"])
        if len(k) >= 3 and top(data.by_any[k]) is p:
            rows.append(("exact", p["name"], p["id"]))
        if len(rows) >= 200:
            break
    return rows


def diacritic_free(data, big):
    """Diacritic-free: names with marks typed in plain ASCII."""
    rows = []
    for p in big:
        if p["name"] != p["ascii"] and p["name"].isascii() is False and top(data.by_any[fold(p["ascii"])]) is p:
            rows.append(("diacritic-free", p["ascii"].lower(), p["id"]))
        if len(rows) >= 150:
            break
    return rows


def qualified(data, rng):
    """Qualified: a name shared by several places; the qualifier (admin1 name, country name or code) picks one."""
    rows = []
    keys = sorted(data.by_primary)
    rng.shuffle(keys)
    for k in keys:
        lst = data.by_primary[k]
        if len(lst) < 2 or len(k) < 4:
            continue
        for p in lst:
            if p["pop"] < 5000 or p is top(lst):
                continue
            a1 = data.admin.get(f'{p["cc"]}.{p["a1"]}')
            for qual, same in ((a1, lambda q: q["cc"] == p["cc"] and q["a1"] == p["a1"]),
                               (data.country.get(p["cc"]), lambda q: q["cc"] == p["cc"]),
                               (p["cc"], lambda q: q["cc"] == p["cc"])):
                if not qual:
                    continue
                if top([q for q in data.by_any[k] if same(q)]) is p:
                    rows.append(("qualified", f'{p["name"]}, {qual}', p["id"]))
                    break
            break
        if len(rows) >= 200:
            break
    return rows


def alternate(data, big, rng):
    """Alternate names and other scripts: a big city by a name that is not its own."""
    rows = []
    for p in (p for p in big if p["pop"] >= 300000):
        own = {fold(p["name"]), fold(p["ascii"])}
        alts = sorted({a for a in p["alts"] if fold(a) not in own and len(fold(a)) >= 3})
        if not alts:
            continue
        a = rng.choice(alts)
        if top(data.by_any[fold(a)]) is p:
            rows.append(("alternate", a, p["id"]))
        if len(rows) >= 200:
            break
    return rows


def typo(data, big, rng):
    """One typo in a name of 5+ letters: substitution, deletion, insertion or swap of neighbours."""
    rows = []
    for p in big:
        name = p["ascii"]
        k = fold(name)
        if len(k.replace(" ", "")) < 5 or not k.replace(" ", "").isalpha() or top(data.by_any[k]) is not p:
            continue
        i = rng.randrange(1, len(name) - 1)
        op = rng.choice("sdit")
        if op == "s":
            typed = name[:i] + rng.choice(LETTERS) + name[i + 1:]
        elif op == "d":
            typed = name[:i] + name[i + 1:]
        elif op == "i":
            typed = name[:i] + rng.choice(LETTERS) + name[i:]
        else:
            typed = name[:i] + name[i + 1] + name[i] + name[i + 2:]
        tk = fold(typed)
        if tk == k or tk in data.by_any or " " in typed[i - 1:i + 2]:
            continue
        rows.append(("typo", typed, p["id"]))
        if len(rows) >= 200:
            break
    return rows


def starting(keys, index, pre):
    """The places of every key in sorted `keys` that starts with `pre`."""
    i = bisect.bisect_left(keys, pre)
    out = []
    while i < len(keys) and keys[i].startswith(pre):
        out.extend(index[keys[i]])
        i += 1
    return out


def prefix(data, big):
    """3-4 letter prefixes: the most populous place whose own name starts with them."""
    prim_keys, any_keys = sorted(data.by_primary), sorted(data.by_any)
    rows, seen = [], set()
    for p in big:
        k = fold(p["name"])
        for length in (3, 4):
            pre = k[:length]
            if len(pre) < length or " " in pre or pre in seen:
                continue
            seen.add(pre)
            matches = starting(prim_keys, data.by_primary, pre)
            best = top(matches)
            # Skip ties in population, and prefixes a bigger place owns through an alternate name.
            alt_best = top(starting(any_keys, data.by_any, pre))
            if alt_best is best and sum(q["pop"] == best["pop"] for q in matches) == 1:
                rows.append(("prefix", pre, best["id"]))
        if len(rows) >= 150:
            break
    return rows


def main():
    data = Data(sys.argv[1] if len(sys.argv) > 1 else "data/geonames/cities500.txt.gz",
                sys.argv[2] if len(sys.argv) > 2 else "data/geonames/admin1CodesASCII.txt",
                sys.argv[3] if len(sys.argv) > 3 else "data/geonames/countryInfo.txt")
    rng = random.Random(1990)
    big = [p for p in data.places if p["pop"] >= 50000]
    rng.shuffle(big)
    rows = exact(data, big) + diacritic_free(data, big)
    rows += qualified(data, rng)
    rows += alternate(data, big, rng)
    rows += typo(data, big, rng)
    rows += prefix(data, big)
    print("# category\tquery\texpected geonameid  (generated by scripts/make-query-set.py from GeoNames cities500, CC-BY 4.0)")
    for cat, q, i in rows:
        print(f"{cat}\t{q}\t{i}")


main()
