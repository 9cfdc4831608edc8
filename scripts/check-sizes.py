#!/usr/bin/env python3
"""Fails, listing each one, when a source file is over 400 lines or a function over 60 lines.

Sources are the .swift, .js, .py and .sh files under Sources, Tests, Benchmarks and scripts (data files such as
JSON, TSV and openapi.json are not source). A function is counted from the line of its keyword to its closing
brace: Swift `func`, `init`, `deinit` and `subscript`; JavaScript `function`, a method, and an arrow function
with a block body; Python `def` (to its last line); shell `name() {` to its `}`. A nested function counts in its
own right and within the one around it.

    scripts/check-sizes.py [PATH ...]      (files or folders; default: Sources Tests Benchmarks scripts)
"""
import ast
import os
import re
import sys

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
ROOTS = ("Sources", "Tests", "Benchmarks", "scripts")
EXTENSIONS = (".swift", ".js", ".py", ".sh")
SWIFT_DECLARATIONS = {"func", "init", "deinit", "subscript"}
# Keywords that start a declaration: met before a `{`, they say the function before them had no body (a protocol
# requirement).
SWIFT_NEXT_DECLARATION = SWIFT_DECLARATIONS | {"var", "let", "case", "struct", "class", "enum", "protocol",
                                               "extension", "typealias", "associatedtype", "actor"}
JS_NOT_METHODS = {"if", "for", "while", "switch", "catch", "with", "function", "return", "typeof", "await"}
# After these tokens a `/` starts a regular expression, not a division.
JS_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "in", "of", "new", "delete", "void",
                                                 "throw", "=>"}


def source_files(paths):
    """Every source file under `paths`, sorted."""
    found = []
    for path in paths:
        if os.path.isfile(path):
            found.append(path)
            continue
        for folder, subfolders, files in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d != "__pycache__")
            found += [os.path.join(folder, f) for f in files if f.endswith(EXTENSIONS)]
    return sorted(p for p in found if p.endswith(EXTENSIONS))


class Scanner:
    """The significant tokens of C-like source (Swift, JavaScript) as (text, line): names, numbers, `=>` and single
    punctuation characters. Comments, strings (interpolations included) and JavaScript regular expressions are
    skipped, so their braces never count."""

    def __init__(self, text, language):
        self.text, self.language, self.i, self.line, self.tokens = text, language, 0, 1, []

    def scan(self):
        text = self.text
        while self.i < len(text):
            c = text[self.i]
            if c == "\n":
                self.line += 1
                self.i += 1
            elif c.isspace():
                self.i += 1
            elif text.startswith("//", self.i):
                self.skip_to("\n", consume=False)
            elif text.startswith("/*", self.i):
                self.skip_block_comment()
            elif c in "\"'`" or (c == "#" and self.language == "swift" and self.raw_string_ahead()):
                self.skip_string()
            elif c == "/" and self.language == "js" and self.regex_allowed():
                self.skip_regex()
            elif c.isalnum() or c in "_$":
                self.take_word()
            elif text.startswith("=>", self.i):
                self.tokens.append(("=>", self.line))
                self.i += 2
            else:
                self.tokens.append((c, self.line))
                self.i += 1
        return self.tokens

    def advance(self, count):
        self.line += self.text.count("\n", self.i, self.i + count)
        self.i += count

    def skip_to(self, end, consume=True):
        found = self.text.find(end, self.i)
        stop = len(self.text) if found < 0 else found + (len(end) if consume else 0)
        self.advance(stop - self.i)

    def skip_block_comment(self):
        depth = 0
        while self.i < len(self.text):
            if self.text.startswith("/*", self.i):
                depth += 1
                self.advance(2)
            elif self.text.startswith("*/", self.i):
                depth -= 1
                self.advance(2)
                if depth == 0 or self.language == "js":
                    return
            else:
                self.advance(1)

    def take_word(self):
        match = re.compile(r"[A-Za-z0-9_$]+").match(self.text, self.i)
        self.tokens.append((match.group(), self.line))
        self.i = match.end()

    def raw_string_ahead(self):
        return re.compile(r"#+\"").match(self.text, self.i) is not None

    def skip_string(self):
        """Skips a string literal: Swift "..." / \"\"\"...\"\"\" / #"..."#, JavaScript '...', "..." and `...`."""
        hashes = len(re.compile(r"#*").match(self.text, self.i).group())
        self.advance(hashes)
        quote = '"""' if self.text.startswith('"""', self.i) else self.text[self.i]
        self.advance(len(quote))
        end, escape = quote + "#" * hashes, "\\" + "#" * hashes
        while self.i < len(self.text) and not self.text.startswith(end, self.i):
            if self.text.startswith(escape, self.i):
                self.advance(len(escape))
                if self.text.startswith("(", self.i) and self.language == "swift":
                    self.skip_nested("(", ")")
                else:
                    self.advance(1)
            elif quote == "`" and self.text.startswith("${", self.i):
                self.advance(1)
                self.skip_nested("{", "}")
            else:
                self.advance(1)
        self.advance(len(end))

    def skip_nested(self, opening, closing):
        """Skips an interpolation from its `opening` to the matching `closing`, over the strings inside it."""
        depth = 0
        while self.i < len(self.text):
            c = self.text[self.i]
            if c in "\"'`":
                self.skip_string()
                continue
            depth += (c == opening) - (c == closing)
            self.advance(1)
            if depth == 0:
                return

    def regex_allowed(self):
        return not self.tokens or self.tokens[-1][0] in JS_BEFORE_REGEX

    def skip_regex(self):
        self.advance(1)
        in_class = False
        while self.i < len(self.text) and self.text[self.i] != "\n":
            c = self.text[self.i]
            if c == "\\":
                self.advance(2)
                continue
            self.advance(1)
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                break
        while self.i < len(self.text) and self.text[self.i].isalpha():
            self.advance(1)


def closing_brace(tokens, start):
    """The index of the `}` that closes the `{` at `start`."""
    depth = 0
    for k in range(start, len(tokens)):
        depth += (tokens[k][0] == "{") - (tokens[k][0] == "}")
        if depth == 0:
            return k
    return len(tokens) - 1


def swift_body(tokens, start):
    """The index of the `{` opening the body of the declaration whose keyword is at `start`, or None (no body)."""
    depth = 0
    for k in range(start + 1, len(tokens)):
        text = tokens[k][0]
        if text in "([":
            depth += 1
        elif text in ")]":
            depth -= 1
        elif depth == 0 and text == "{":
            return k
        elif depth == 0 and (text == "}" or text in SWIFT_NEXT_DECLARATION):
            return None
    return None


def swift_functions(text):
    tokens = Scanner(text, "swift").scan()
    found = []
    for k, (word, line) in enumerate(tokens):
        if word not in SWIFT_DECLARATIONS or (k > 0 and tokens[k - 1][0] == "."):
            continue
        body = swift_body(tokens, k)
        if body is not None:
            name = tokens[k + 1][0] if word == "func" and k + 1 < len(tokens) else word
            found.append((name, line, tokens[closing_brace(tokens, body)][1]))
    return found


def matching_paren(tokens, start):
    """The index of the `)` that closes the `(` at `start`."""
    depth = 0
    for k in range(start, len(tokens)):
        depth += (tokens[k][0] == "(") - (tokens[k][0] == ")")
        if depth == 0:
            return k
    return len(tokens) - 1


def js_body_after(tokens, k):
    """The index of the `{` right after the parameter list that starts at or after token `k`, or None."""
    opening = next((j for j in range(k, len(tokens)) if tokens[j][0] == "("), None)
    if opening is None:
        return None
    after = matching_paren(tokens, opening) + 1
    return after if after < len(tokens) and tokens[after][0] == "{" else None


def js_function_at(tokens, k):
    """(name, index of the body's `{`) when a function starts at token `k`, else None."""
    word = tokens[k][0]
    following = tokens[k + 1][0] if k + 1 < len(tokens) else ""
    if word == "function":
        body = js_body_after(tokens, k)
        name = following if following not in ("(", "*") else "(function)"
        return (name, body) if body is not None else None
    if word == "=>" and following == "{":
        before = [t[0] for t in tokens[max(0, k - 8):k]]
        name = next((before[j - 1] for j in range(len(before) - 1, 0, -1) if before[j] in ("=", ":")), "(arrow)")
        return name, k + 1
    previous = tokens[k - 1][0] if k > 0 else "{"
    if following == "(" and re.fullmatch(r"[A-Za-z_$][\w$]*", word) and word not in JS_NOT_METHODS \
            and previous in ("{", "}", ";", ",", "async", "static", "get", "set", "*"):
        body = js_body_after(tokens, k + 1)
        return (word, body) if body is not None else None
    return None


def js_functions(text):
    tokens = Scanner(text, "js").scan()
    found = []
    for k in range(len(tokens)):
        start = js_function_at(tokens, k)
        if start:
            name, body = start
            found.append((name, tokens[k][1], tokens[closing_brace(tokens, body)][1]))
    return found


def python_functions(text):
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.name, node.lineno, node.end_lineno))
    return found


def shell_functions(text):
    lines, found = text.split("\n"), []
    for number, line in enumerate(lines, 1):
        match = re.match(r"^(\s*)(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{(.*)$", line)
        if not match:
            continue
        if match.group(3).rstrip().endswith("}"):
            found.append((match.group(2), number, number))
            continue
        closing = re.compile(re.escape(match.group(1)) + r"\}\s*(#.*)?$")
        end = next((n for n in range(number + 1, len(lines) + 1) if closing.match(lines[n - 1])), len(lines))
        found.append((match.group(2), number, end))
    return found


FUNCTIONS = {".swift": swift_functions, ".js": js_functions, ".py": python_functions, ".sh": shell_functions}


def problems(path):
    """(file line count or None, [(function, first line, length)]) over the limits for one file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    extension = os.path.splitext(path)[1]
    functions = [(name, first, last - first + 1) for name, first, last in FUNCTIONS[extension](text)]
    return (count if count > MAX_FILE_LINES else None), [f for f in functions if f[2] > MAX_FUNCTION_LINES]


def main(arguments):
    long_files, long_functions = [], []
    for path in source_files(arguments or [r for r in ROOTS if os.path.isdir(r)]):
        count, functions = problems(path)
        if count:
            long_files.append(f"  {path}: {count} lines")
        long_functions += [f"  {path}:{first} {name}: {length} lines" for name, first, length in functions]
    if long_files:
        print(f"files over {MAX_FILE_LINES} lines:\n" + "\n".join(long_files), file=sys.stderr)
    if long_functions:
        print(f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(long_functions), file=sys.stderr)
    if long_files or long_functions:
        return 1
    print(f"sizes: no file over {MAX_FILE_LINES} lines, no function over {MAX_FUNCTION_LINES}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
