"""Sums the per-file records up (overall, by repository, feature, element,
DaCe version and format, and the refusal categories) and writes them as JSON
and as the Markdown section of docs/dace-import.md between its markers.
Everything is sorted, so the same records give the same text.
"""
import collections
import re

from . import classify

BEGIN = "<!-- BEGIN GENERATED: public-corpus (scripts/dace-public-corpus.py) -->"
END = "<!-- END GENERATED: public-corpus -->"
SECTION = "## Public corpus"
FINDINGS = ("crash", "hang", "out of memory")


def is_finding(record):
    """A crash or hang of a tool, or IR that does not verify: the importer's
    own output refused by MLIR's verifier (an op's error, at the import or
    at the verification)."""
    if record.get("outcome") in FINDINGS:
        return True
    return record.get("outcome") == "refused" and (
        record["failed_step"] == "verify" or
        (record["failed_step"] == "import" and
         classify.OP_ERROR.match(record.get("message", ""))))


def _recategorized(record):
    """The record with its category from the current rules (the records of
    a saved report keep their first error)."""
    if record.get("outcome") != "refused" or not record.get("message"):
        return record
    kinds = [kind.split(" ", 1)[-1] for kind in record.get("elements", [])]
    return dict(record, category=classify.categorize(record["message"], kinds))


def _passed(record, step):
    return record["steps"].get(step) == "ok"


def rates(records):
    """Counts of one group: files, and how many pass each step. `built` is
    out of `build_tried` (the files whose build ran)."""
    tried = [r for r in records if "build" in r["steps"]]
    return {
        "files": len(records),
        "imported": sum(_passed(r, "import") for r in records),
        "verified": sum(_passed(r, "verify") for r in records),
        "build_tried": len(tried),
        "built": sum(_passed(r, "build") for r in tried),
    }


def _groups(records, keys_of):
    grouped = collections.defaultdict(list)
    for record in records:
        for key in keys_of(record):
            grouped[key].append(record)
    return {key: rates(group) for key, group in sorted(grouped.items())}


def _failure_key(record):
    return "%s: %s" % (record["failed_step"], record["category"])


def summarize(records, meta):
    """The summary of the records (each carrying its corpus row's columns:
    gpu, features, dace_version, format)."""
    records = sorted(records, key=lambda r: (r["repo"], r["path"],
                                             r["commit"]))
    records = [_recategorized(r) for r in records]
    refused = collections.Counter(
        _failure_key(r) for r in records if r.get("outcome") == "refused")
    findings = [
        {key: r.get(key) for key in ("repo", "commit", "path", "failed_step",
                                     "outcome", "message", "frame",
                                     "reproduce")}
        for r in records if is_finding(r)]
    return {
        "meta": meta,
        "overall": rates(records),
        "by_repo": _groups(records, lambda r: [r["repo"]]),
        "by_gpu": _groups(records, lambda r: ["gpu " + r["gpu"]]),
        "by_feature": _groups(records,
                              lambda r: r["features"].split() or ["(none)"]),
        "by_element": _groups(records, lambda r: r.get("elements", [])),
        "by_version": _groups(records, lambda r: [r["dace_version"]]),
        "by_format": _groups(records, lambda r: [r["format"]]),
        "refusals": [{"category": key, "files": count} for key, count in
                     sorted(refused.items(), key=lambda kv: (-kv[1], kv[0]))],
        "findings": findings,
    }


def _share(count, total):
    return "%s (%.1f%%)" % (format(count, ","), 100.0 * count / total) \
        if total else "0"


def _row(name, counts, sampled_build):
    """One table row: the files, and how many of them pass the import, the
    import and the verification, and all three steps. With a sampled build
    the last is estimated (the verified files times the build sample's
    rate), and one more column gives the build sample's own counts."""
    files, tried = counts["files"], counts["build_tried"]
    cells = [name, format(files, ","), _share(counts["imported"], files),
             _share(counts["verified"], files)]
    if not sampled_build:
        cells.append(_share(counts["built"], files))
    else:
        cells.append("≈%.1f%%" % (100.0 * counts["verified"] * counts["built"]
                                  / (tried * files)) if tried else "–")
        cells.append("%s of %s" % (format(counts["built"], ","),
                                   format(tried, ",")))
    return "| " + " | ".join(cells) + " |"


def _table(title, groups, sampled_build, first_column, minimum=1):
    header = "| %s | files | import | import, verify | import, verify, " \
        "build |" % first_column
    rule = "|---|---:|---:|---:|---:|"
    if sampled_build:
        header += " build sample: built of tried |"
        rule += "---:|"
    lines = ["", title, "", header, rule]
    ordered = sorted(groups.items(), key=lambda kv: (-kv[1]["files"], kv[0]))
    shown = [(k, v) for k, v in ordered if v["files"] >= minimum]
    lines += [_row(key.replace("|", "\\|"), counts, sampled_build)
              for key, counts in shown]
    if len(shown) < len(ordered):
        lines += ["", "(%d more, each in fewer than %d files: in the JSON "
                  "report.)" % (len(ordered) - len(shown), minimum)]
    return lines


def _detail(finding):
    """A crash's first frame in the tools' code, or the first error."""
    text = finding.get("frame") or finding.get("message") or ""
    text = text if len(text) <= 100 else text[:99] + "…"
    return text.replace("|", "\\|").replace("`", "'")


def markdown(summary, top=15, element_minimum=5):
    """The generated part of the "Public corpus" section."""
    meta = summary["meta"]
    sampled_build = meta["build"] == "sample"
    lines = [BEGIN, "",
             "%s files of %s (%s), measured %s with %s; build: %s." % (
                 format(summary["overall"]["files"], ","),
                 format(meta["corpus_files"], ","), meta["selection"],
                 meta["date"], meta["tool"], meta["build_note"])]
    lines += _table("**Overall**", {"all files": summary["overall"]},
                    sampled_build, "")
    lines += _table("**By repository**", summary["by_repo"], sampled_build,
                    "repository")
    lines += _table("**GPU or not** (the list's gpu column)",
                    summary["by_gpu"], sampled_build, "")
    lines += _table("**By feature** (the list's features column; a file may "
                    "have several)", summary["by_feature"], sampled_build,
                    "feature")
    lines += _table("**By element** (the files that hold it, from their "
                    "JSON)", summary["by_element"], sampled_build, "element",
                    element_minimum)
    lines += _table("**By DaCe version**", summary["by_version"],
                    sampled_build, "dace_version")
    lines += _table("**By format**", summary["by_format"], sampled_build,
                    "format")
    lines += ["", "**Top refusals** (the first error of the first step that "
              "failed, normalized)", "", "| # | step: category | files |",
              "|---:|---|---:|"]
    lines += ["| %d | %s | %s |" % (i + 1, r["category"].replace("|", "\\|"),
                                    format(r["files"], ","))
              for i, r in enumerate(summary["refusals"][:top])]
    lines += ["", "**Crashes, hangs, and imported IR that does not verify** "
              "(bugs)", ""]
    if summary["findings"]:
        lines += ["| repository | commit | path | step | outcome | detail |",
                  "|---|---|---|---|---|---|"]
        lines += ["| %s | %s | `%s` | %s | %s | %s |" % (
            f["repo"], f["commit"][:12], f["path"], f["failed_step"],
            "invalid IR" if f["outcome"] == "refused" else f["outcome"],
            _detail(f)) for f in summary["findings"]]
    else:
        lines += ["None."]
    lines += ["", END]
    return "\n".join(lines) + "\n"


def insert(document, generated):
    """The document with the generated part replaced (or, without markers,
    a "Public corpus" section holding it appended)."""
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?",
                         re.S)
    if pattern.search(document):
        return pattern.sub(lambda _: generated, document, count=1)
    return document.rstrip("\n") + "\n\n" + SECTION + "\n\n" + generated
