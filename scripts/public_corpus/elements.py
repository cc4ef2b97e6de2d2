"""The kinds of DaCe elements one SDFG file holds, read from its JSON:
node types ("node NestedSDFG"), library node classes ("library MatMul"),
descriptors ("descriptor View"), storage ("storage GPU_Shared"), map
schedules ("schedule GPU_Device"), control-flow blocks ("block LoopRegion")
and tasklet languages ("tasklet CPP"). The report gives the import rate of
the files that hold each.
"""
import gzip
import json


def _enum(value):
    """DaCe writes enums as `GPU_Global` or, in older files,
    `StorageType.GPU_Global`."""
    return str(value).rsplit(".", 1)[-1]


def _node(node, found):
    kind = node.get("type")
    attributes = node.get("attributes")
    attributes = attributes if isinstance(attributes, dict) else {}
    if "classpath" in node:
        found.add("library " + str(node["classpath"]).rsplit(".", 1)[-1])
        return
    found.add("node %s" % kind)
    if kind in ("MapEntry", "ConsumeEntry") and attributes.get("schedule"):
        found.add("schedule " + _enum(attributes["schedule"]))
    if kind == "Tasklet":
        code = attributes.get("code")
        if isinstance(code, dict) and code.get("language"):
            found.add("tasklet " + _enum(code["language"]))


def _walk(value, role, found):
    if isinstance(value, list):
        for item in value:
            _walk(item, role, found)
        return
    if not isinstance(value, dict):
        return
    kind = value.get("type")
    if isinstance(kind, str):
        if role == "descriptor":
            found.add("descriptor " + kind)
            attributes = value.get("attributes")
            if isinstance(attributes, dict) and attributes.get("storage"):
                found.add("storage " + _enum(attributes["storage"]))
        elif role == "element":
            # Nodes of a state have scope links; blocks of a region do not.
            if "scope_entry" in value or "scope_exit" in value:
                _node(value, found)
            else:
                found.add("block " + kind)
    for key, child in value.items():
        if key == "_arrays" and isinstance(child, dict):
            for descriptor in child.values():
                _walk(descriptor, "descriptor", found)
        elif key in ("nodes", "branches"):
            _walk(child, "element", found)
        elif key != "orig_sdfg" and isinstance(child, (dict, list)):
            _walk(child, None, found)


def read_sdfg(data):
    """The JSON of an .sdfg or .sdfgz file's bytes (gzip by its magic, as
    the importer decides), or None if it is neither."""
    try:
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        return json.loads(data)
    except (OSError, EOFError, ValueError, RecursionError):
        return None


def elements(data):
    """The sorted element kinds of an SDFG file's bytes (["unreadable"] if
    it is not JSON)."""
    document = read_sdfg(data)
    if document is None:
        return ["unreadable"]
    found = set()
    try:
        _walk(document, "element" if isinstance(document, dict) and
              document.get("type") == "SDFG" else None, found)
    except RecursionError:
        found.add("too deep to scan")
    found.discard("block SDFG")
    return sorted(found)
