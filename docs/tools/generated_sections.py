#!/usr/bin/env python3
"""Regenerates (or checks) the parts of the hand-written docs that the tools
can say themselves: the pass order of each lowering pipeline
(`sdfg-opt --sdfg-lower-to-<vendor> --dump-pass-pipeline`), the pipelines'
options and every SDFGStream pass with its options (`sdfg-opt --help`).

Each generated part sits between two markers in a doc,

    <!-- BEGIN GENERATED: <name> (docs/tools/generated_sections.py) -->
    ...
    <!-- END GENERATED: <name> -->

and is rewritten in place (`--write`) or compared (`--check`, what the test
suite runs: test/docs-generated-sections.test). The passes are those the
TableGen files under include/SDFGStream declare; the prose around the
markers stays hand-written.

Usage: generated_sections.py --opt-tool SDFG_OPT --src ROOT (--write | --check)
       [--rocm-toolkit DIR]
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
from pathlib import Path

BEGIN = "<!-- BEGIN GENERATED: {name} (docs/tools/generated_sections.py) -->"
END = "<!-- END GENERATED: {name} -->"


def tool_environment():
    """This environment without LD_PRELOAD: the sanitizer suite runs this
    script with the ASan runtime preloaded for Python, which an
    instrumented sdfg-opt (linked against its own) refuses."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def run(tool, args, stdin=""):
    result = subprocess.run([tool] + args, input=stdin, capture_output=True,
                            text=True, env=tool_environment())
    if result.returncode != 0:
        sys.exit("generated_sections.py: %s %s failed:\n%s" %
                 (tool, " ".join(args), result.stderr))
    return result.stdout + result.stderr


def declared_passes(src):
    """(name, tablegen file) of every pass SDFGStream declares, in file
    order."""
    passes = []
    for folder in ("Transforms", "Conversion", "Pipelines"):
        td = src / "include" / "SDFGStream" / folder / "Passes.td"
        for match in re.finditer(r'Pass<"([^"]+)"', td.read_text()):
            passes.append((match.group(1), td.parent.name))
    return passes


def help_entries(help_text):
    """{pass or pipeline name: (summary, [(option, description)])} from
    `--help`: each entry at one indentation, its options one level in."""
    entries = {}
    current = None
    for line in help_text.splitlines():
        entry = re.match(r"^      --([\w.-]+)\s+-\s+(.*)$", line)
        if entry:
            current = entry.group(1)
            entries[current] = (entry.group(2).strip(), [])
            continue
        option = re.match(r"^        --([\w.-]+)(=<\w+>)?\s+-\s+(.*)$", line)
        if option and current:
            entries[current][1].append((option.group(1), option.group(3)))
            continue
        if not line.startswith("        "):
            current = None
    return entries


def pass_order(tool, pipeline):
    """The pipeline's passes by name, nested pass managers indented."""
    text = run(tool, ["--" + pipeline, "--dump-pass-pipeline"],
               stdin="module {}\n")
    text = text[text.index("builtin.module("):]
    # Drop the options: balanced braces, possibly nested.
    out, depth = [], 0
    for char in text:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif depth == 0:
            out.append(char)
    lines = []
    for line in "".join(out).splitlines()[1:]:
        if line.rstrip() == ")":
            break  # The end of builtin.module(...).
        name = line.strip().rstrip(",").strip()
        if not name or name == ")":
            continue
        depth = (len(line) - len(line.lstrip())) // 2 - 1
        if name.endswith("("):
            lines.append("  " * depth + "- on each `%s`:" % name[:-1])
        else:
            lines.append("  " * depth + "- `%s`" % name)
    return lines


def escape(text):
    return (text.replace("|", "\\|").replace("<", "&lt;")
            .replace(">", "&gt;"))


def pipeline_passes_section(tool, rocm_toolkit):
    cuda = pass_order(tool, "sdfg-lower-to-cuda")
    rocm = pass_order(tool, "sdfg-lower-to-rocm=toolkit=%s" % rocm_toolkit)
    return (["The passes in order, as `--dump-pass-pipeline` prints them "
             "(default options;",
             "ROCm with Debian's device libraries, whose `format=bin` goes "
             "through",
             "`sdfg-assemble-amdgpu-kernels`):", "",
             "<table><tr><th>sdfg-lower-to-cuda</th>"
             "<th>sdfg-lower-to-rocm</th></tr><tr><td>", ""] + cuda +
            ["", "</td><td>", ""] + rocm + ["", "</td></tr></table>"])


def pipeline_options_section(entries):
    summary, options = entries["sdfg-lower-to-cuda"]
    rocm = entries["sdfg-lower-to-rocm"][1]
    if options != rocm:
        sys.exit("generated_sections.py: the two pipelines' options differ")
    lines = ["| option | meaning |", "|---|---|"]
    for name, description in options:
        if name.startswith("test-"):
            continue
        lines.append("| `%s` | %s |" % (name, escape(description)))
    lines.append("")
    lines.append("Options named `test-*` exist for the negative controls "
                 "of the GPU tests only.")
    return lines


def passes_section(entries, passes):
    library = {"Transforms": "SDFGStream/Transforms/Passes.h",
               "Conversion": "SDFGStream/Conversion/Passes.h",
               "Pipelines": "SDFGStream/Pipelines/Passes.h"}
    lines = ["| pass | header | what it does | options |", "|---|---|---|---|"]
    for name, folder in passes:
        if name not in entries:
            sys.exit("generated_sections.py: %s is declared but not "
                     "registered in sdfg-opt" % name)
        summary, options = entries[name]
        shown = [o for o, _ in options if not o.startswith("test-")]
        lines.append("| `%s` | `%s` | %s | %s |" % (
            name, library[folder], escape(summary),
            ", ".join("`%s`" % o for o in shown) or "none"))
    return lines


def replace_section(text, name, body, path):
    begin, end = BEGIN.format(name=name), END.format(name=name)
    if begin not in text or end not in text:
        sys.exit("generated_sections.py: %s has no '%s' markers" %
                 (path, name))
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + "\n".join(body) + "\n" + end + tail


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt-tool", required=True)
    parser.add_argument("--src", required=True, type=Path)
    parser.add_argument("--rocm-toolkit", default="/usr/lib/x86_64-linux-gnu")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = parser.parse_args()

    entries = help_entries(run(args.opt_tool, ["--help"]))
    sections = {
        "docs/lowering.md": {
            "pipeline-passes": pipeline_passes_section(args.opt_tool,
                                                       args.rocm_toolkit),
            "pipeline-options": pipeline_options_section(entries),
        },
        "docs/embedding.md": {
            "passes": passes_section(entries, declared_passes(args.src)),
            "pipeline-options": pipeline_options_section(entries),
        },
    }
    stale = False
    for relative, parts in sections.items():
        path = args.src / relative
        old = path.read_text()
        new = old
        for name, body in parts.items():
            new = replace_section(new, name, body, relative)
        if new == old:
            continue
        if args.write:
            path.write_text(new)
            print("rewrote", relative)
        else:
            stale = True
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), relative,
                relative + " (generated)"))
    if stale:
        print("generated sections are stale: run docs/tools/"
              "generated_sections.py --write (see docs/contributing.md)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
