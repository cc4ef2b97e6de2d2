"""Runs one corpus file through the three steps, each a child process under
a time and a memory limit: import (`sdfg-translate --import-dace-sdfg`),
verify (`sdfg-opt` parses and verifies what the import printed) and build
(`sdfg-compile` of the imported module to an object). A step's outcome is
"ok", "refused" (it failed with a diagnostic), "crash" (killed by a signal),
"hang" (past the time limit) or "out of memory" (past the memory limit).
"""
import os
import resource
import shlex
import signal
import subprocess
import tempfile
import time

from . import classify
from .elements import elements

OUT_OF_MEMORY = ("std::bad_alloc", "out of memory", "Cannot allocate memory",
                 "Allocation failed")


class Limits:
    def __init__(self, seconds, build_seconds, memory_mb):
        self.seconds = seconds
        self.build_seconds = build_seconds
        self.memory_mb = memory_mb


def _limit_child(memory_mb):
    def apply():
        os.setsid()  # its own process group: a timeout ends all of it
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def run_step(command, seconds, memory_mb, cwd):
    """(outcome, stderr, seconds taken) of one step."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE,
                               preexec_fn=_limit_child(memory_mb))
    try:
        _, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
        return "hang", err.decode("utf-8", "replace"), seconds
    taken = time.monotonic() - start
    text = err.decode("utf-8", "replace")
    if process.returncode == 0:
        return "ok", text, taken
    if any(word in text for word in OUT_OF_MEMORY):
        return "out of memory", text, taken
    # A tool killed by a signal; sdfg-compile (bash) reports its child's as
    # 128 + N, and LLVM's handler prints a stack dump.
    if process.returncode < 0 or (classify.signal_name(process.returncode)
                                  and "Stack dump" in text):
        return "crash", text, taken
    return "refused", text, taken


def extract(mirror, commit, path, into):
    """The file's bytes from the mirror, written to `into` (the extension
    as the corpus names it, which tells the importer .sdfg from .sdfgz)."""
    data = subprocess.run(
        ["git", "--git-dir", mirror, "cat-file", "blob",
         "%s:%s" % (commit, path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True).stdout
    with open(into, "wb") as out:
        out.write(data)
    return data


def _finding(step, outcome, err, kinds):
    """What a failed step records: its category and its first error."""
    message = classify.first_error(err)
    if outcome == "refused":
        category = classify.categorize(message, kinds) if message else \
            "no diagnostic (%s)" % (err.strip().splitlines() or ["silent"])[-1][:80]
    elif outcome == "crash":
        category = "crash"
    else:
        category = outcome
    record = {"failed_step": step, "outcome": outcome, "category": category,
              "message": (message or "")[:300]}
    if outcome == "crash":
        record["frame"] = classify.crash_frame(err)
        record["tail"] = err.strip().splitlines()[-3:] if err.strip() else []
    return record


def _reproduce(row, mirror, steps, failed, suffix, work):
    """Shell commands that redo the steps up to the failed one on the file,
    in a fresh folder."""
    lines = ["git --git-dir %s cat-file blob %s > program%s" % (
        shlex.quote(mirror), shlex.quote("%s:%s" % (row["commit"],
                                                  row["path"])), suffix)]
    for step, command, _ in steps:
        words = [os.path.basename(word) if word.startswith(work) else word
                 for word in command]
        lines.append(" ".join(shlex.quote(word) for word in words))
        if step == failed:
            break
    return " && ".join(lines)


def run_file(row, mirror, tools, limits, build):
    """The record of one corpus row: its elements and each step's outcome."""
    record = {"repo": row["repo"], "commit": row["commit"],
              "path": row["path"], "steps": {}, "seconds": {}}
    suffix = ".sdfgz" if row["path"].endswith(".sdfgz") else ".sdfg"
    with tempfile.TemporaryDirectory(prefix="dace-corpus-") as work:
        source = os.path.join(work, "program" + suffix)
        try:
            data = extract(mirror, row["commit"], row["path"], source)
        except (OSError, subprocess.CalledProcessError) as error:
            record["steps"]["extract"] = "failed"
            record.update(failed_step="extract", outcome="failed",
                          category="not in the mirror", message=str(error)[:300])
            return record
        record["elements"] = elements(data)
        kinds = [kind.split(" ", 1)[-1] for kind in record["elements"]]
        imported = os.path.join(work, "imported.mlir")
        steps = [
            ("import", [tools["sdfg-translate"], "--import-dace-sdfg", source,
                        "-o", imported], limits.seconds),
            ("verify", [tools["sdfg-opt"], imported, "-o", os.devnull],
             limits.seconds),
        ]
        if build:
            steps.append(("build", [tools["sdfg-compile"], imported, "-o",
                                    os.path.join(work, "program.o")],
                          limits.build_seconds))
        for step, command, seconds in steps:
            outcome, err, taken = run_step(command, seconds, limits.memory_mb,
                                           work)
            record["steps"][step] = outcome
            record["seconds"][step] = round(taken, 2)
            if outcome != "ok":
                record.update(_finding(step, outcome, err, kinds))
                record["reproduce"] = _reproduce(row, mirror, steps, step,
                                                 suffix, work)
                break
    return record
