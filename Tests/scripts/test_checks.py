"""The repository's own checks (scripts/check-sizes.py, scripts/check-imports.py) on small made-up sources: what
they must count and flag, and what they must not. Run by scripts/test.sh: python3 -m unittest discover Tests/scripts"""
import importlib.util
import os
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(ROOT, "scripts", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sizes = load("check-sizes")
imports = load("check-imports")


def body(lines):
    return "\n".join(f"    x{i} = {i}" for i in range(lines))


class SwiftFunctions(unittest.TestCase):
    def test_a_function_counts_from_its_keyword_to_its_closing_brace(self):
        text = "struct A {\n    @inlinable\n    func f() {\n" + body(58) + "\n    }\n}\n"
        self.assertEqual(sizes.swift_functions(text), [("f", 3, 62)])

    def test_braces_in_strings_comments_and_interpolations_do_not_count(self):
        text = textwrap.dedent('''\
            func f() -> String {
                // a { in a comment
                /* and } in /* a nested */ block comment */
                let s = "a { in a string \\("and } in" + "an interpolation") }"
                let t = """
                    { a multi-line string "quoted" }
                    """
                let u = #"raw "{" string"#
                return s + t + u
            }
            func g() {}
            ''')
        self.assertEqual(sizes.swift_functions(text), [("f", 1, 10), ("g", 11, 11)])

    def test_requirements_calls_and_nested_functions(self):
        text = textwrap.dedent('''\
            protocol P {
                func need() -> Int
                init(x: Int)
                var v: Int { get }
            }
            struct S {
                init(y: Int) { self.init(); let z = Int.init(3) }
                func outer() {
                    func inner() {
                    }
                }
                deinit {}
                subscript(i: Int) -> Int { i }
            }
            ''')
        self.assertEqual(sizes.swift_functions(text),
                         [("init", 7, 7), ("outer", 8, 11), ("inner", 9, 10), ("deinit", 12, 12), ("subscript", 13, 13)])


class JavaScriptFunctions(unittest.TestCase):
    def test_declarations_methods_and_arrows_with_blocks(self):
        text = textwrap.dedent('''\
            export function one(a = {}) {
              return a;
            }
            const two = async (x) => {
              if (x) { return 1; }
            };
            const three = (x) => x * 2;
            const object = {
              four(y) {
                return y;
              },
            };
            list.forEach((item) => {
              use(item);
            });
            ''')
        self.assertEqual(sizes.js_functions(text),
                         [("one", 1, 3), ("two", 4, 6), ("four", 9, 11), ("(arrow)", 13, 15)])

    def test_braces_in_regular_expressions_and_templates_do_not_count(self):
        text = textwrap.dedent('''\
            function f(message) {
              const m = /^([A-Z][\\w .()-]{0,40}?):\\s/.exec(message);
              const t = `a ${m ? "{" : "}"} b`;
              return m && t.length / 2;
            }
            ''')
        self.assertEqual(sizes.js_functions(text), [("f", 1, 5)])


class PythonAndShellFunctions(unittest.TestCase):
    def test_python_functions_end_at_their_last_line(self):
        text = "def f():\n    x = 1\n\n    return x\n\n\nclass C:\n    def g(self):\n        pass\n"
        self.assertEqual(sorted(sizes.python_functions(text)), [("f", 1, 4), ("g", 8, 9)])

    def test_shell_functions_end_at_the_brace_under_their_name(self):
        text = "one() { echo 1; }\ntwo() {   # a comment\n    if true; then\n        echo {}\n    fi\n}\necho done\n"
        self.assertEqual(sizes.shell_functions(text), [("one", 1, 1), ("two", 2, 6)])


class Limits(unittest.TestCase):
    def test_files_over_400_lines_and_functions_over_60_are_flagged_and_data_is_not_source(self):
        with tempfile.TemporaryDirectory() as folder:
            def put(name, text):
                with open(os.path.join(folder, name), "w") as f:
                    f.write(text)
            put("Long.swift", "// line\n" * 401)
            put("Fine.swift", "// line\n" * 400 + "func f() {\n" + body(58) + "\n}\n")
            put("Big.py", "def f():\n" + body(60) + "\n")
            put("data.json", "{}\n" * 1000)
            paths = sizes.source_files([folder])
            self.assertEqual([os.path.basename(p) for p in paths], ["Big.py", "Fine.swift", "Long.swift"])
            results = {os.path.basename(p): sizes.problems(p) for p in paths}
            self.assertEqual(results["Long.swift"], (401, []))
            self.assertEqual(results["Fine.swift"], (460, []))
            self.assertEqual(results["Big.py"], (None, [("f", 1, 61)]))


class Imports(unittest.TestCase):
    MANIFEST = textwrap.dedent('''\
        let package = Package(targets: [
            .target(name: "PindropCore"),
            .target(name: "PindropIndex", dependencies: ["PindropCore", .product(name: "GRDB", package: "GRDB.swift")]),
            .target(name: "PindropServer", dependencies: ["PindropCore", "PindropIndex"]),
            .testTarget(name: "PindropIndexTests", dependencies: ["PindropIndex"]),
        ])
        ''')

    def run_in(self, files):
        with tempfile.TemporaryDirectory() as folder:
            for path, text in files.items():
                os.makedirs(os.path.join(folder, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(folder, path), "w") as f:
                    f.write(text)
            here = os.getcwd()
            os.chdir(folder)
            try:
                return imports.swift_problems(self.MANIFEST)
            finally:
                os.chdir(here)

    def test_a_sibling_dependency_and_an_import_outside_the_list_are_refused(self):
        problems = self.run_in({
            "Sources/PindropCore/A.swift": "import Foundation\nimport PindropIndex\n",
            "Sources/PindropIndex/B.swift": "import PindropCore\nimport GRDB\n@testable import AsyncHTTPClient\n",
            "Sources/PindropServer/C.swift": "import PindropCore\n",
            "Tests/PindropIndexTests/D.swift": "import Testing\nimport PindropCore\nimport GRDB\n@testable import PindropIndex\n",
        })
        self.assertEqual(problems, [
            "Sources/PindropCore/A.swift: PindropCore imports PindropIndex, which its dependencies do not allow",
            "Sources/PindropIndex/B.swift: PindropIndex imports AsyncHTTPClient, which its dependencies do not allow",
            "Package.swift: PindropServer must not depend on PindropIndex (imports point down)",
        ])

    def test_web_app_modules_import_only_their_siblings(self):
        with tempfile.TemporaryDirectory() as folder:
            files = {"a.js": 'import { b } from "./b.js";\nimport x from "../x.js";\n',
                     "b.js": 'import "https://unpkg.com/leaflet.js";\nexport const b = 1;\nconst c = await import("./c.js");\n'}
            for name, text in files.items():
                with open(os.path.join(folder, name), "w") as f:
                    f.write(text)
            problems = imports.js_problems(folder)
        self.assertEqual(len(problems), 3, problems)
        self.assertTrue(problems[0].endswith("a.js: imports '../x.js'; the web app's modules import only their siblings, as \"./name.js\""))
        self.assertIn("'https://unpkg.com/leaflet.js'", problems[1])
        self.assertIn("'./c.js'", problems[2])


if __name__ == "__main__":
    unittest.main()
