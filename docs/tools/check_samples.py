#!/usr/bin/env python3
"""Checks the code samples of the hand-written docs (test/docs-samples.test).

Every fenced block of a doc under docs/ (and README.md) is checked by its
language, unless a comment right before its fence says otherwise:

  ```mlir    parsed and verified by sdfg-opt; with
             <!-- sample: sdfg-opt ARGS --> run through those passes too
             (they must succeed).
  ```c       compiled (-fsyntax-only) after SDFGRuntime.h: a declaration of
             a runtime entry must agree with the runtime's own.
  ```cpp     compiled (-fsyntax-only, C++17) against SDFGStream's and MLIR's
             headers.
  ```python  compiled (syntax), and every `sdfgstream.NAME` it uses must
             exist in the package (python/sdfgstream).
  ```json    parsed.

Annotations (an HTML comment on the line before the fence):

  <!-- sample: statements(PARAMS) | PRELUDE -->  a c/cpp block of
      statements: checked as the body of `void sample(PARAMS)`, after the
      block's #includes and the optional PRELUDE (declarations the
      parameters need).
  <!-- sample: sketch -->  an illustrative fragment (`...`, placeholders):
      not compiled, but every sdfg.* op (mlir) or sdfgrt* entry (c) it
      names must exist.
  <!-- sample: skip REASON -->  not checked, for the stated reason.

Blocks of other languages (sh, cmake, plain text) are commands and
pictures for other machines: not checked.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

FENCE = re.compile(r"^```([a-z+]*)\s*$")
NOTE = re.compile(r"^<!-- sample: (.*?) -->\s*$")


def blocks(path):
    """(line, language, annotation, text) of each fenced block."""
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match or not match.group(1):
            i += 1
            continue
        note = NOTE.match(lines[i - 1]) if i > 0 else None
        start = i
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        yield (start + 1, match.group(1), note.group(1) if note else "",
               "\n".join(body) + "\n")
        i += 1


class Checker:
    def __init__(self, args):
        self.args = args
        self.failures = []
        self.checked = 0
        src = args.src
        td = (src / "include/SDFGStream/Dialect/SDFG/IR/SDFGOps.td").read_text()
        self.ops = set(re.findall(r'SDFG_Op<"([\w.]+)"', td))
        entries = (src / "include/SDFGStream/Runtime/RuntimeEntries.def")
        self.entries = set(re.findall(r"SDFGRT_RUNTIME_ENTRY\((\w+),",
                                      entries.read_text()))
        mlir_include = Path(args.mlir_opt).resolve().parent.parent / "include"
        self.includes = ["-I%s" % (src / "include"),
                         "-I%s" % (args.obj / "include"),
                         "-I%s" % mlir_include]
        sys.path.insert(0, str(src / "python"))

    def fail(self, where, message):
        self.failures.append("%s: %s" % (where, message.rstrip()))

    def run(self, where, command, stdin=None):
        # Without LD_PRELOAD: the sanitizer suite preloads the ASan runtime
        # for Python, which an instrumented sdfg-opt (linked against its
        # own) refuses.
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        result = subprocess.run(command, input=stdin, capture_output=True,
                                text=True, env=env)
        if result.returncode != 0:
            self.fail(where, "`%s` failed:\n%s%s" % (
                " ".join(command[:3]), result.stdout, result.stderr))

    def compile(self, where, text, language, annotation):
        if annotation.startswith("statements("):
            signature, _, prelude = annotation.partition(" | ")
            params = signature[len("statements("):-1]
            includes = [l for l in text.splitlines()
                        if l.startswith("#include")]
            rest = [l for l in text.splitlines()
                    if not l.startswith("#include")]
            text = "\n".join(includes) + "\n%s\nvoid sample(%s) {\n%s\n}\n" % (
                prelude, params, "\n".join(rest))
        if language == "c":
            text = ("#include <stdint.h>\n#include <stdio.h>\n"
                    "#include \"SDFGStream/Runtime/SDFGRuntime.h\"\n" + text)
            compiler, flags, suffix = self.args.cc, ["-std=c11"], ".c"
        else:
            compiler, flags, suffix = self.args.cxx, ["-std=c++17"], ".cpp"
        with tempfile.NamedTemporaryFile("w", suffix=suffix) as source:
            source.write(text)
            source.flush()
            self.run(where, shlex.split(compiler) + flags + self.includes +
                     ["-fsyntax-only", "-w", source.name])

    def check_sketch(self, where, language, text):
        if language == "mlir":
            # An op's name starts its line or follows `=`; types
            # (`!sdfg.stream`) and attributes (`{sdfg.stream_slot = 1}`) do
            # not.
            for op in re.findall(r"(?m)(?:^|=)\s*sdfg\.(\w+)", text):
                if op not in self.ops:
                    self.fail(where, "sdfg.%s is no op of the dialect" % op)
        for entry in re.findall(r"\b(sdfgrt[A-Z]\w*)\s*\(", text):
            if entry not in self.entries:
                self.fail(where, "%s is no runtime entry" % entry)

    def check_python(self, where, text):
        try:
            compile(text, where, "exec")
        except SyntaxError as error:
            self.fail(where, "syntax error: %s" % error)
            return
        import importlib
        for module, name in set(re.findall(
                r"\b(sdfgstream(?:\.\w+)?)\.(\w+)\b", text)):
            if module == "sdfgstream" and name == "jax":
                continue
            try:
                imported = importlib.import_module(module)
            except ImportError as error:
                if module != "sdfgstream.jax":
                    self.fail(where, "cannot import %s: %s" % (module, error))
                continue
            if not hasattr(imported, name):
                self.fail(where, "%s has no %s" % (module, name))

    def check(self, path, line, language, annotation, text):
        where = "%s:%d" % (path.relative_to(self.args.src), line)
        if annotation.startswith("skip"):
            if len(annotation.split()) < 2:
                self.fail(where, "a skipped sample must say why")
            return
        if language not in ("mlir", "c", "c++", "cpp", "python", "json"):
            return
        self.checked += 1
        if annotation == "sketch":
            self.check_sketch(where, language, text)
        elif language == "mlir":
            extra = (shlex.split(annotation[len("sdfg-opt"):])
                     if annotation.startswith("sdfg-opt") else [])
            self.run(where, [self.args.sdfg_opt] + extra + ["-o", "/dev/null"],
                     stdin=text)
        elif language in ("c", "c++", "cpp"):
            self.compile(where, text, "c" if language == "c" else "cpp",
                         annotation)
        elif language == "python":
            self.check_python(where, text)
        elif language == "json":
            try:
                json.loads(text)
            except ValueError as error:
                self.fail(where, "invalid JSON: %s" % error)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", required=True, type=Path)
    parser.add_argument("--obj", required=True, type=Path)
    parser.add_argument("--opt-tool", dest="sdfg_opt", required=True)
    parser.add_argument("--mlir-opt", required=True)
    parser.add_argument("--cc", default="cc")
    parser.add_argument("--cxx", default="c++")
    args = parser.parse_args()
    checker = Checker(args)
    docs = sorted((args.src / "docs").glob("*.md")) + [args.src / "README.md"]
    for path in docs:
        for line, language, annotation, text in blocks(path):
            checker.check(path, line, language, annotation, text)
    for failure in checker.failures:
        print("error:", failure)
    print("%d samples checked, %d failed" % (checker.checked,
                                             len(checker.failures)))
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
