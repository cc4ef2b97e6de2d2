"""Names the reason a file failed: the first error of the first failing step,
normalized to a category ("node type NestedSDFG", "descriptor View",
"library node MatMul", "key code_global", ...) so that files refused for the
same reason count together. Names of the file's own containers, labels and
numbers are dropped; the kind of element the message names is kept.
"""
import keyword
import re
import signal

# A diagnostic as the tools print it: "FILE:LINE:COL: error: MESSAGE" (or
# without a location), and LLVM's fatal errors.
ERROR_LINE = re.compile(r"^(?:.*?:\d+:\d+: )?error: (?P<message>.*)$")
FATAL_LINE = re.compile(r"^(?P<message>LLVM ERROR: .*)$")
# An error in a tasklet's or a condition's code quotes the code first (which
# may hold quotes itself: the message is what follows the last "': ").
IN_CODE = re.compile(r"^(?:in|cannot parse) '.*': (?P<message>.+)$")
# An MLIR verifier's error: "'memref.store' op ...".
OP_ERROR = re.compile(r"^'[a-z_]+(?:\.[\w.]+)+' op ")
QUOTED = re.compile(r"(?<!\w)'([^']*)'")
NUMBER = re.compile(r"(?<![\w$])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\b")


def short_class(name):
    """`dace.libraries.blas.nodes.matmul.MatMul` and `StorageType.GPU_Global`
    name the class or the member: MatMul, GPU_Global."""
    return name.rsplit(".", 1)[-1].strip()


# (pattern on the message, category). The first match wins; a category may
# use the pattern's groups. Kinds are named as DaCe names them.
RULES = [
    (r"^node type '([^']+)'", "node type {0}"),
    (r"^library node '[^']*' \(([^)]+)\)", "library node {0:class}"),
    (r"^data container '[^']*' is a '([^']+)'", "descriptor {0}"),
    (r"is a (GPU_ThreadBlock|[A-Za-z_]+) map, which is not supported",
     "schedule {0}"),
    (r"^schedule '([^']+)'", "schedule {0:class}"),
    (r"^storage '([^']+)'", "storage {0:class}"),
    (r"in (\w+) storage is not supported", "storage {0}"),
    (r"^element type '([^']*)'", "element type {0}"),
    (r"^control-flow block '[^']*' of type '([^']+)'", "control-flow block {0}"),
    (r"^(\w+(?:Block|Region|State)) '[^']*' is not supported$",
     "control-flow block {0}"),
    (r"in language '([^']+)'", "code language {0:class}"),
    (r"has '(code_global|code_init|code_exit)'", "tasklet {0}"),
    (r"has side effects", "tasklet side effects"),
    (r"^lifetime '([^']+)'", "lifetime {0:class}"),
    (r"has start_offset", "start_offset"),
    (r"a range with tile size", "range tile size"),
    (r"^subset of type '([^']+)'", "subset type {0}"),
    (r"DaCe's 2019 format", "2019 format"),
    (r"saved after (?:its )?validation failed|validation failed", "file saved after failed validation"),
    (r"'constants_prop'|constants_prop|has compile-time constants",
     "compile-time constants (constants_prop)"),
    (r"^SDFG '[^']*' has (global_code|init_code|exit_code)", "SDFG {0}"),
    (r"^missing '([^']+)'", "missing key {0}"),
    (r"^expected '([^']+)' to be (an? \w+)", "key {0} not {1}"),
    (r"^'[^']*' is not an integer expression", "non-integer expression"),
    (r"function '([^']+)' is not supported", "function {0}"),
    (r"compound statement '([^']+)'", "tasklet statement {0}"),
    (r"^tasklet '[^']*': '(for)' over", "tasklet for over non-range"),
    (r"^transient '[^']*' has strides", "transient strides not row-major"),
    (r"^write-conflict resolution '", "write-conflict resolution"),
]
_COMPILED = [(re.compile(pattern), category) for pattern, category in RULES]

# Words that name a kind of element rather than one program's name: they are
# kept when a message quotes them and no rule matched.
KIND_WORDS = {
    "AccessNode", "Array", "ArrayView", "ConditionalBlock", "ConsumeEntry",
    "ConsumeExit", "ContainerArray", "ControlFlowRegion", "FunctionCallRegion",
    "LibraryNode", "LoopRegion", "MapEntry", "MapExit", "NestedSDFG", "Reduce",
    "Scalar", "SDFGState", "Stream", "Structure", "Tasklet", "View",
    "StructureView", "Reference", "GPU_Device", "GPU_ThreadBlock",
    "GPU_Global", "GPU_Shared", "CPU_Heap", "Register", "Sequential",
    "CPU_Multicore", "Default", "Python", "CPP",
}


def _fill(category, groups):
    def field(match):
        index, _, conversion = match.group(1).partition(":")
        value = groups[int(index)] or "?"
        return short_class(value) if conversion == "class" else value
    return re.sub(r"\{(\d+(?::\w+)?)\}", field, category)


def normalize(message, kinds=()):
    """The message with names and numbers dropped: a quoted word stays only
    if it names a kind (KIND_WORDS or `kinds`), a Python keyword or
    operator, or an MLIR op."""
    keep = KIND_WORDS.union(kinds)

    def quoted(match):
        text = match.group(1)
        # Kinds, Python keywords and operators, and MLIR op names
        # ('memref.load': a tool's verifier names the op it refuses).
        kind = (short_class(text) in keep or keyword.iskeyword(text) or
                re.fullmatch(r"[^\w\s']{1,3}", text) or
                re.fullmatch(r"[a-z_]+(?:\.[a-z_0-9]+)+", text))
        return match.group(0) if kind else "'_'"
    text = QUOTED.sub(quoted, message)
    text = NUMBER.sub("N", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text[:120]


def categorize(message, kinds=()):
    """The category of one error message."""
    code = IN_CODE.match(message)
    if code:
        return "code: " + categorize(code.group("message"), kinds)
    for pattern, category in _COMPILED:
        match = pattern.search(message)
        if match:
            return _fill(category, match.groups())
    return normalize(message, kinds)


def first_error(stderr):
    """The first error message of a tool's output, or None."""
    for line in stderr.splitlines():
        match = ERROR_LINE.match(line) or FATAL_LINE.match(line)
        if match:
            return match.group("message").strip()
    return None


def signal_name(returncode):
    """SIGSEGV for -11 (a child killed by a signal), or for 139 where a shell
    reports it (sdfg-compile is a bash script); None otherwise."""
    number = -returncode if returncode < 0 else (
        returncode - 128 if 128 < returncode < 160 else None)
    if number is None:
        return None
    try:
        return signal.Signals(number).name
    except ValueError:
        return "signal %d" % number


def crash_frame(stderr):
    """The first frame of an LLVM stack dump in the project's or MLIR's code
    (past the signal handlers), to tell crashes apart; None without one."""
    for line in stderr.splitlines():
        match = re.match(r"^\s*#\d+ 0x[0-9a-f]+ (.*?)(?: \(/.*\))?$", line)
        if not match:
            continue
        frame = match.group(1)
        if re.search(r"llvm::sys::|SignalHandler|__restore_rt|libc\.so|"
                     r"abort|raise|__GI_", frame):
            continue
        return re.sub(r"\(.*\)", "()", frame)[:160]
    return None
