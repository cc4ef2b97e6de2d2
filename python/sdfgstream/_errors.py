"""The package's exceptions."""

__all__ = ["Error", "CallError", "CompileError", "LibraryError"]


class Error(Exception):
    """Base of the errors sdfgstream raises itself (argument errors are
    TypeError / ValueError, raised before anything is enqueued)."""


class LibraryError(Error, OSError):
    """A file that cannot be loaded as a program library."""


class CompileError(Error):
    """sdfg-compile failed; `output` is what it printed."""

    def __init__(self, message, output=""):
        super().__init__(message + ("\n" + output if output else ""))
        self.output = output


class CallError(Error, RuntimeError):
    """A program call failed.

    `status` is the runtime's error code (the vendor's CUresult /
    hipError_t, or -1 for a failure the runtime detects itself),
    `error_name` the vendor's name of it ("CUDA_ERROR_INVALID_VALUE";
    "SDFGRT_FAILURE" for the runtime's own), `location` the failed
    operation's source location ("prog.mlir:12:5", "" if unknown) and
    `message` the runtime's whole text. The runtime's error model leaves
    nothing half-enqueued: the call stops at its first failing operation,
    and what it had allocated is freed on the stream.
    """

    def __init__(self, program, status, error_name, location, message):
        text = "%s failed with %s (%d)" % (program, error_name or "an error", status)
        if message:
            text += ": " + message
        super().__init__(text)
        self.program = program
        self.status = status
        self.error_name = error_name
        self.location = location
        self.message = message
