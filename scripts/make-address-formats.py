#!/usr/bin/env python3
"""Converts OpenCage's address-formatting configuration (YAML, MIT) into the one JSON file the formatter reads:
Sources/PindropCore/AddressFormatting/address-formats.json, with the licence beside it.

Every scalar is read as text (PyYAML's BaseLoader: "NO" stays Norway's code, "0123" stays a string), anchors are
expanded, and each distinct template is stored once. Lists keep the files' order where order decides (the aliases
of a component, the state codes, the abbreviations).

Usage: scripts/make-address-formats.py [../shared/address-formatting] [Sources/PindropCore/AddressFormatting]
"""
import glob, json, os, shutil, sys

import yaml


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=yaml.BaseLoader)


def countries(worldwide):
    """Each country's rules, its templates as indexes into one list of distinct texts."""
    templates, index, rules = [], {}, {}

    def template(text):
        if text not in index:
            index[text] = len(templates)
            templates.append(text)
        return index[text]

    for code, conf in worldwide.items():
        # Plain strings are the shared templates (generic1 ...), reached through the countries' anchors; keys such
        # as CA_en name a language variant the formatter never selects (it looks countries up by their two letters).
        if not isinstance(conf, dict) or (code != "default" and len(code) != 2):
            continue
        rule = {}
        for key, name in (("address_template", "address"), ("fallback_template", "fallback")):
            if conf.get(key, "").strip():
                rule[name] = template(conf[key])
        for key, name in (("replace", "replace"), ("postformat_replace", "postformatReplace")):
            if conf.get(key):
                rule[name] = [[pair[0], pair[1]] for pair in conf[key]]
        for key, name in (("use_country", "useCountry"), ("change_country", "changeCountry"),
                          ("add_component", "addComponent")):
            if key in conf:
                rule[name] = conf[key]
        rules[code] = rule
    return templates, rules


def codes(table):
    """{"US": [["AL", ["Alabama"]], ...]}: a code's names, its default one first."""
    out = {}
    for country, entries in table.items():
        rows = []
        for code, names in entries.items():
            if isinstance(names, dict):
                names = [names["default"]] + [v for k, v in names.items() if k != "default"] if "default" in names \
                    else list(names.values())
            else:
                names = [names]
            rows.append([code, names])
        out[country] = rows
    return out


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "../shared/address-formatting"
    target = sys.argv[2] if len(sys.argv) > 2 else "Sources/PindropCore/AddressFormatting"
    conf = os.path.join(source, "conf")
    templates, rules = countries(load(os.path.join(conf, "countries", "worldwide.yaml")))
    with open(os.path.join(conf, "components.yaml"), encoding="utf-8") as f:
        components = [[c["name"], c.get("aliases", [])] for c in yaml.load_all(f, Loader=yaml.BaseLoader) if c]
    abbreviations = {}
    for path in sorted(glob.glob(os.path.join(conf, "abbreviations", "*.yaml"))):
        language = os.path.basename(path)[:-5]
        abbreviations[language] = [[component, [[long, short] for long, short in pairs.items()]]
                                   for component, pairs in load(path).items()]
    commit = open(os.path.join(source, "COMMIT"), encoding="utf-8").read().strip()
    data = {
        "source": {"repository": "https://github.com/OpenCageData/address-formatting", "commit": commit,
                   "licence": "MIT, address-formats.LICENSE.txt"},
        "components": components,
        "templates": templates,
        "countries": rules,
        "stateCodes": codes(load(os.path.join(conf, "state_codes.yaml"))),
        "countyCodes": codes(load(os.path.join(conf, "county_codes.yaml"))),
        "countryLanguages": {k: v.split(",") for k, v in load(os.path.join(conf, "country2lang.yaml")).items()},
        "abbreviations": abbreviations,
    }
    with open(os.path.join(target, "address-formats.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    shutil.copyfile(os.path.join(source, "LICENSE.txt"), os.path.join(target, "address-formats.LICENSE.txt"))
    print(f"{len(rules)} countries, {len(templates)} templates -> {target}/address-formats.json", file=sys.stderr)


if __name__ == "__main__":
    main()
