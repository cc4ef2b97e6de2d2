"""A `@dace.program` calling another one that stays a NestedSDFG on the host:
`smooth` (a LoopRegion `for t in range(S)` around two slice statements) is
called on whole arrays and, inside a host loop, on a row `Z[k]` of a 2-D
array (the connector is bound to a view at a subset that names the loop
variable). DaCe inlines a callee with one state; the loop keeps it nested.
The symbol mapping passes `N` and `S` (`S` a free symbol of the caller); the
GPU transformation makes the callee's maps GPU maps, so the GPU variant calls
a nested program with GPU work."""
import dace
import numpy as np

N = dace.symbol('N')
S = dace.symbol('S')


@dace.program
def smooth(A: dace.float64[N], B: dace.float64[N]):
    for t in range(S):
        B[1:N - 1] = 0.5 * (A[0:N - 2] + A[2:N])
        A[1:N - 1] = B[1:N - 1] + 0.125 * t


@dace.program
def nested_call(X: dace.float64[N], Y: dace.float64[N], Z: dace.float64[3, N]):
    smooth(X, Y, S=S)
    for k in range(3):
        smooth(Z[k], Y, S=S)
        Z[k, 0] = Y[k + 1]


program = nested_call
OUTPUTS = ['X', 'Y', 'Z']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(nested_sdfgs=1, LoopRegion=2)


def make_inputs(rng):
    n = 64
    return dict(X=rng.standard_normal(n), Y=np.zeros(n), Z=rng.standard_normal((3, n)), N=n, S=4)


def _smooth(a, b, s):
    for t in range(s):
        b[1:-1] = 0.5 * (a[:-2] + a[2:])
        a[1:-1] = b[1:-1] + 0.125 * t


def reference(inp):
    X, Y, Z = inp['X'].copy(), inp['Y'].copy(), inp['Z'].copy()
    _smooth(X, Y, inp['S'])
    for k in range(3):
        _smooth(Z[k], Y, inp['S'])
        Z[k, 0] = Y[k + 1]
    return dict(X=X, Y=Y, Z=Z)
