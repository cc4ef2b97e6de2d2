#!/usr/bin/env python3
"""Measures the DaCe importer on the public corpus: a CSV list of public DaCe
files (repo,path,commit,date,size,dace_version,format,gpu,features,libnodes)
read from local mirrors of their repositories (<mirrors>/<owner>+<name>/repo,
bare git directories). Each file is imported (sdfg-translate
--import-dace-sdfg), the result verified (sdfg-opt) and built to an object
(sdfg-compile), each step under a time and memory limit; a failure is
classified by its first error. The report goes to a JSON file and to the
section "Public corpus" of docs/dace-import.md, between its markers.

  nice -n 19 scripts/dace-public-corpus.py --jobs 2            # everything
  scripts/dace-public-corpus.py --sample 1000 --jobs 2         # stratified
  scripts/dace-public-corpus.py --from-json report.json        # doc only
  scripts/dace-public-corpus.py --classify diagnostics.txt     # categories

Never fails on a bad file: a crash or hang of a tool is a finding of the
report, listed with its repository, commit and path.
"""
import argparse
import concurrent.futures
import csv
import datetime
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from public_corpus import classify, report, sample  # noqa: E402
from public_corpus.runner import Limits, run_file  # noqa: E402

COLUMNS = ("gpu", "features", "dace_version", "format", "libnodes")


def arguments():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", default=os.path.join(
        os.path.dirname(ROOT), "shared", "dace-public-corpus.csv"),
        help="the corpus list (default: ../shared/dace-public-corpus.csv "
        "beside the checkout)")
    parser.add_argument("--mirrors", default="/work/.mirror",
                        help="folder of <owner>+<name>/repo git mirrors")
    parser.add_argument("--build-dir", default=os.environ.get(
        "SDFGSTREAM_BUILD_DIR", os.path.join(ROOT, "build")),
        help="SDFGStream build folder, its tools in bin/ (default: "
        "$SDFGSTREAM_BUILD_DIR, else build/ of the checkout)")
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="a stratified sample of N files (by repository, "
                        "GPU or not, features), not all")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--list-sample", action="store_true",
                        help="print the files --sample chooses and stop")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--build", choices=("all", "sample", "none"),
                        default="all", help="build every file that verifies, "
                        "a stratified sample of them (--build-sample, drawn "
                        "once all are verified), or none")
    parser.add_argument("--build-sample", type=int, default=300, metavar="N")
    parser.add_argument("--timeout", type=int, default=120,
                        help="seconds for the import and for the verification")
    parser.add_argument("--build-timeout", type=int, default=600)
    parser.add_argument("--memory-mb", type=int, default=4096,
                        help="address space limit of each tool (MiB)")
    parser.add_argument("--json", help="the JSON report (default: "
                        "build/dace-public-corpus.json of the checkout); its "
                        "records are kept beside it (<json>.records.jsonl) as "
                        "files finish. With --from-json: write the report "
                        "summed again there")
    parser.add_argument("--resume", action="store_true",
                        help="keep the records of a previous run and run "
                        "only the files it has not done")
    parser.add_argument("--doc", default=os.path.join(
        ROOT, "docs", "dace-import.md"))
    parser.add_argument("--no-doc", action="store_true",
                        help="write the JSON report only")
    parser.add_argument("--from-json", metavar="REPORT",
                        help="write the doc section from a JSON report and "
                        "run nothing")
    parser.add_argument("--print-markdown", action="store_true",
                        help="print the generated section instead of "
                        "writing the doc")
    parser.add_argument("--classify", metavar="FILE",
                        help="print the category of each tool output in "
                        "FILE (blocks separated by lines '---'; '-': stdin)")
    return parser.parse_args()


def read_rows(path):
    with open(path, newline="") as stream:
        rows = list(csv.DictReader(stream))
    return sorted(rows, key=lambda r: (r["repo"], r["path"], r["commit"]))


def tools_of(build_dir):
    tools = {name: os.path.join(build_dir, "bin", name)
             for name in ("sdfg-translate", "sdfg-opt", "sdfg-compile")}
    missing = [t for t in tools.values() if not os.access(t, os.X_OK)]
    if missing:
        sys.exit("dace-public-corpus: no tool %s (--build-dir)" % missing[0])
    return tools


def tool_version(tools, build_dir):
    """The tools' version and the commit of the source they were built
    from (the build folder's CMake cache names it)."""
    out = subprocess.run([tools["sdfg-compile"], "--version"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    version = out.stdout.decode("utf-8", "replace").strip()
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as cache:
            source = next(line.split("=", 1)[1].strip() for line in cache
                          if line.startswith("CMAKE_HOME_DIRECTORY:"))
        commit = subprocess.run(
            ["git", "-C", source, "rev-parse", "--short=12", "HEAD"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
        return "%s at %s" % (version, commit.stdout.decode().strip())
    except (OSError, StopIteration, subprocess.CalledProcessError):
        return version


def key_of(row):
    return (row["repo"], row["path"], row["commit"])


def run_rows(rows, selected_for_build, args, tools, records_path, done):
    limits = Limits(args.timeout, args.build_timeout, args.memory_mb)
    todo = [r for r in rows if key_of(r) not in done]
    with open(records_path, "a") as out, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {
            pool.submit(run_file, row, os.path.join(
                args.mirrors, row["repo"].replace("/", "+"), "repo"), tools,
                limits, key_of(row) in selected_for_build): row
            for row in todo}
        for count, future in enumerate(
                concurrent.futures.as_completed(futures), 1):
            record = future.result()
            done[key_of(futures[future])] = record
            out.write(json.dumps(record, sort_keys=True) + "\n")
            out.flush()
            if count % 50 == 0 or count == len(todo):
                print("%d/%d" % (count, len(todo)), file=sys.stderr)


def print_categories(path):
    text = sys.stdin.read() if path == "-" else open(path).read()
    for block in text.split("\n---\n"):
        message = classify.first_error(block)
        print(classify.categorize(message) if message else "(no error)")


def write_json(path, meta, summary, records):
    with open(path, "w") as stream:
        json.dump({"meta": meta, "summary": summary, "records": records},
                  stream, indent=1, sort_keys=True)
        stream.write("\n")


def write_doc(summary, args):
    generated = report.markdown(summary)
    if args.print_markdown:
        sys.stdout.write(generated)
        return
    with open(args.doc) as stream:
        document = stream.read()
    with open(args.doc, "w") as stream:
        stream.write(report.insert(document, generated))


def main():
    args = arguments()
    if args.classify:
        return print_categories(args.classify)
    if args.from_json:
        with open(args.from_json) as stream:
            saved = json.load(stream)
        summary = report.summarize(saved["records"], saved["meta"])
        if args.json:
            write_json(args.json, saved["meta"], summary, saved["records"])
        return write_doc(summary, args)
    rows = read_rows(args.csv)
    chosen = sample.stratified(rows, args.sample, args.seed) \
        if args.sample else rows
    if args.list_sample:
        for row in chosen:
            print("%s %s %s" % (row["repo"], row["commit"], row["path"]))
        return
    tools = tools_of(args.build_dir)
    args.json = args.json or os.path.join(ROOT, "build",
                                          "dace-public-corpus.json")
    records_path = args.json + ".records.jsonl"
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    done = {}
    if args.resume and os.path.exists(records_path):
        with open(records_path) as stream:
            for line in stream:
                record = json.loads(line)
                done[(record["repo"], record["path"], record["commit"])] = record
    elif os.path.exists(records_path):
        os.remove(records_path)
    # With a build sample, every file is imported and verified first; then
    # a stratified sample of those that verify runs again with the build.
    for_build = {key_of(r) for r in chosen} if args.build == "all" else set()
    run_rows(chosen, for_build, args, tools, records_path, done)
    if args.build == "sample":
        verified = [r for r in chosen
                    if done[key_of(r)]["steps"].get("verify") == "ok"]
        for_build = {key_of(r) for r in sample.stratified(
            verified, args.build_sample, args.seed)}
        for key in for_build:
            if "build" not in done[key]["steps"]:
                del done[key]
        run_rows(chosen, for_build, args, tools, records_path, done)
    records = []
    for row in chosen:
        record = dict(done[key_of(row)])
        record.update({column: row[column] for column in COLUMNS})
        records.append(record)
    meta = {
        "corpus_files": len(rows),
        "selection": "all" if not args.sample else
        "a stratified sample of %d, seed %d" % (len(chosen), args.seed),
        "build": args.build,
        "build_note": {"all": "every file that verifies",
                       "sample": "a stratified sample of %d of the files "
                       "that verify, seed %d" % (len(for_build), args.seed),
                       "none": "not run"}[args.build],
        "tool": tool_version(tools, args.build_dir),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%d"),
        "limits": {"seconds": args.timeout,
                   "build_seconds": args.build_timeout,
                   "memory_mb": args.memory_mb},
    }
    summary = report.summarize(records, meta)
    write_json(args.json, meta, summary, records)
    if not args.no_doc:
        write_doc(summary, args)
    overall = summary["overall"]
    print("files %d, imported %d, verified %d, built %d of %d tried; "
          "%d findings" % (overall["files"], overall["imported"],
                           overall["verified"], overall["built"],
                           overall["build_tried"], len(summary["findings"])))


if __name__ == "__main__":
    main()
