"""sdfgstream.compile: sdfg-compile with a build cache.

A compiled program does not depend on the stream it will run on, so one
build serves every stream and every process: builds are kept in a cache
directory under a key made of the input's bytes, the options, the target
and the tool's identity (its --version and the size and modification time
of the tool and its sibling tools), and a second compile of the same input
loads the kept library without running the tool. Builds of the same key in
several processes at once are serialized by a lock file; a finished build
is moved into place in one rename.
"""

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time

from ._errors import CompileError
from ._library import Library

__all__ = ["cache_dir", "compile", "tool_version"]

_SUFFIXES = (".mlir", ".sdfg", ".sdfgz")


def cache_dir():
    """$SDFGSTREAM_CACHE_DIR, else $XDG_CACHE_HOME/sdfgstream, else
    ~/.cache/sdfgstream."""
    explicit = os.environ.get("SDFGSTREAM_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "sdfgstream")


def _find_tool(tool):
    tool = tool or os.environ.get("SDFG_COMPILE") or shutil.which("sdfg-compile")
    if not tool or not os.path.exists(tool):
        raise CompileError("sdfg-compile not found: pass tool=, set SDFG_COMPILE, or put "
                           "it on PATH")
    return os.path.abspath(tool)


_versions = {}


def tool_version(tool=None):
    """The identity of the sdfg-compile at `tool` that build keys include:
    its --version line, and the size and modification time of it and of
    the sdfg-* tools beside it (a rebuilt tool makes new keys)."""
    tool = _find_tool(tool)
    real = os.path.realpath(tool)
    stamps = []
    directory = os.path.dirname(real)
    for name in sorted(os.listdir(directory)):
        if name.startswith("sdfg-"):
            status = os.stat(os.path.join(directory, name))
            stamps.append("%s:%d:%d" % (name, status.st_size, status.st_mtime_ns))
    key = (real, tuple(stamps))
    if key not in _versions:
        line = subprocess.run([tool, "--version"], check=True, capture_output=True,
                              text=True).stdout.strip()
        _versions[key] = line + " [" + " ".join(stamps) + "]"
    return _versions[key]


def _option_flags(options):
    flags = []
    for name in sorted(options):
        value = options[name]
        flag = "--" + name.replace("_", "-")
        if value is True:
            flags.append(flag)
        elif value is False or value is None:
            continue
        else:
            flags.append("%s=%s" % (flag, value))
    return flags


def compile(source, *, tool=None, cache=None, name=None, **options):
    """Builds `source` with sdfg-compile and loads the library.

    `source` is a path to a .mlir, .sdfg or .sdfgz file, or MLIR text.
    `options` are sdfg-compile's, spelled with underscores
    (``concurrent_streams=True``, ``chip="sm_90"``, ``target="rocm"``):
    True adds the flag, False or None leaves it out, any other value is
    passed as ``--name=value``. `cache` is the cache directory
    (default: cache_dir()); `tool` the sdfg-compile to run.

    The library is taken from the cache when this input was built with
    these options by this tool before, in this process or another; its
    ``build`` attribute says whether it was built now and how long that
    took. Raises CompileError with the tool's messages if it fails.
    """
    tool = _find_tool(tool)
    if isinstance(source, (str, os.PathLike)) and (
            not isinstance(source, str) or "\n" not in source) and os.path.exists(source):
        path = os.fspath(source)
        suffix = next((s for s in _SUFFIXES if path.endswith(s)), None)
        if suffix is None:
            raise ValueError("%s: sdfg-compile takes .mlir, .sdfg or .sdfgz input" % path)
        with open(path, "rb") as handle:
            data = handle.read()
        stem = name or os.path.basename(path)[: -len(suffix)]
    elif isinstance(source, str):
        data, suffix, stem = source.encode("utf-8"), ".mlir", name or "program"
    else:
        raise TypeError("source must be a path or MLIR text, not %s" % type(source).__name__)

    flags = _option_flags(options)
    digest = hashlib.sha256()
    for part in (tool_version(tool), suffix, json.dumps(flags)):
        digest.update(part.encode("utf-8") + b"\0")
    digest.update(data)
    key = digest.hexdigest()
    root = cache or cache_dir()
    final = os.path.join(root, key[:2], key)

    built = False
    if not os.path.exists(os.path.join(final, "build.json")):
        os.makedirs(os.path.dirname(final), exist_ok=True)
        with open(final + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not os.path.exists(os.path.join(final, "build.json")):
                _build(tool, data, suffix, stem, flags, final)
                built = True
        try:
            os.unlink(final + ".lock")
        except OSError:
            pass
    with open(os.path.join(final, "build.json")) as handle:
        record = json.load(handle)
    library = Library(os.path.join(final, record["library"]))
    library.build = dict(record, built_now=built, key=key)
    return library


def _build(tool, data, suffix, stem, flags, final):
    staging = tempfile.mkdtemp(prefix=".build-", dir=os.path.dirname(final))
    try:
        source = os.path.join(staging, stem + suffix)
        with open(source, "wb") as handle:
            handle.write(data)
        command = [tool, source, "-o", os.path.join(staging, stem + ".so"),
                   "--header", os.path.join(staging, stem + ".h")] + flags
        start = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True)
        seconds = time.monotonic() - start
        if done.returncode != 0:
            raise CompileError("sdfg-compile failed (exit %d) on %s"
                               % (done.returncode, stem + suffix),
                               (done.stderr + done.stdout).strip())
        with open(os.path.join(staging, "build.json"), "w") as handle:
            json.dump({"library": stem + ".so", "header": stem + ".h",
                       "command": [os.path.basename(tool)] + flags,
                       "seconds": round(seconds, 3)}, handle)
        os.rename(staging, final)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
