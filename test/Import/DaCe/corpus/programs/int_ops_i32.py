"""int32 element-wise arithmetic in one tasklet per element: +, *, integer
floor division //, modulo %, integer power ** 2, comparisons and a
conditional expression (one explicit dace.tasklet with three outputs), on int32 and int64 arrays (an int64 output: the
tasklet's C++ conversions matter). Inputs are positive, so C++ truncation
and Python floor agree for // and %."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def int_ops_i32(A: dace.int32[N], B: dace.int32[N], Q: dace.int32[N], R: dace.int32[N],
                S: dace.int64[N]):
    for i in dace.map[0:N]:
        with dace.tasklet:
            a << A[i]
            b << B[i]
            q >> Q[i]
            r >> R[i]
            s >> S[i]
            q = a // b + 3 * a
            r = a % b if a > b else b % 7
            s = dace.int64(a) * dace.int64(b) + b ** 2


program = int_ops_i32
OUTPUTS = ['Q', 'R', 'S']
TOLERANCE = dict(rtol=0, atol=0)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(maps='GPU_Device', tasklets=1)


def make_inputs(rng):
    n = 500
    return dict(A=rng.integers(1, 1000, n).astype(np.int32),
                B=rng.integers(1, 50, n).astype(np.int32),
                Q=np.zeros(n, np.int32), R=np.zeros(n, np.int32), S=np.zeros(n, np.int64), N=n)


def reference(inp):
    a, b = inp['A'], inp['B']
    return dict(Q=(a // b + 3 * a).astype(np.int32),
                R=np.where(a > b, a % b, b % 7).astype(np.int32),
                S=a.astype(np.int64) * b + b.astype(np.int64) ** 2)
