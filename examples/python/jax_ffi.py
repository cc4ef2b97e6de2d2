#!/usr/bin/env python3
"""An SDFGStream program inside jax.jit, on JAX's own compute stream.

The library (smooth_axpy.mlir, `sdfg-compile smooth_axpy.mlir -o
smooth_axpy.so`) is registered as an XLA FFI target by the sdfgstream
package; inside jax.jit the program is one more operation of the XLA
program: XLA hands it its compute stream and its buffers, between JAX's own
operations, with no host synchronization and no DLPack round trip.

  jax_ffi.py [--lib smooth_axpy.so] [-n 1048576]

Prints the check against NumPy; exits 1 if it fails.
"""

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
try:
    import sdfgstream
except ImportError:  # run from the checkout, the package not installed
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import sdfgstream  # noqa: E402
import sdfgstream.jax  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lib", default=os.path.join(HERE, "smooth_axpy.so"))
    parser.add_argument("-n", type=int, default=1 << 20)
    args = parser.parse_args()
    import jax
    import jax.numpy as jnp

    lib = sdfgstream.load(args.lib)
    # The program writes `out` and `sum`: they are the operation's results;
    # x and y are its operands, alpha an attribute.
    smooth_axpy = sdfgstream.jax.register(lib, "smooth_axpy", outputs=("out", "sum"))
    print(smooth_axpy)

    @jax.jit
    def step(x, y):
        x = jnp.tanh(x)                      # JAX's work ...
        out, total = smooth_axpy(x=x, y=y, alpha=0.5,
                                 out=jax.ShapeDtypeStruct(x.shape, x.dtype))
        return out * 2.0, total              # ... the program's, then JAX's again

    rng = np.random.default_rng(0)
    x = rng.random(args.n, dtype=np.float32)
    y = rng.random(args.n, dtype=np.float32)
    out, total = step(jnp.asarray(x), jnp.asarray(y))

    t = np.tanh(x)
    padded = np.concatenate([t[:1], t, t[-1:]])
    want = np.float32(0.5) * (0.25 * padded[:-2] + 0.5 * padded[1:-1] + 0.25 * padded[2:]) + y
    ok = np.allclose(np.asarray(out), 2 * want, rtol=1e-5, atol=1e-5) and \
        abs(float(total) - float(want.sum(dtype=np.float64))) <= 1e-3 * abs(float(want.sum()))
    print("%s: jitted tanh -> smooth_axpy (XLA FFI, JAX's stream) -> *2 matches NumPy"
          % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
