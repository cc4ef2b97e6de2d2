#!/usr/bin/env python3
# Writes the seed inputs of the fuzzer: every test/**/*.mlir split at its
# "// -----" lines (the -split-input-file separator), one file per piece,
# into the directory given as the only argument. scripts/fuzz.sh --reseed
# merges them into fuzz/corpus, keeping only pieces that add coverage.
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
count = 0
for test in sorted((root / "test").rglob("*.mlir")):
    text = test.read_text()
    for index, piece in enumerate(re.split(r"^// -----.*$", text, flags=re.M)):
        if not piece.strip():
            continue
        name = "%s-%d.mlir" % (test.relative_to(root / "test").as_posix().replace("/", "_"), index)
        (out / name).write_text(piece)
        count += 1
print("%d seed inputs in %s" % (count, out))
