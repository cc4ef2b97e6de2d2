"""Math functions and operators in one explicit tasklet per element
(float64): exp, log, sqrt, sin, cos, tanh, abs, min, max, floor, ceil, pow,
** with an integer exponent (ipow), 0.5 (sqrt) and a float exponent (pow),
a cast dace.float64(int), integer // and % on an int32 input, comparisons,
boolean and/or/not and a conditional expression. floor and ceil are
written bare: DaCe 2.0.0a5 turns math.floor/math.ceil into dace::math::floor,
which exists only for its typeless NaN (the CPU build fails). Inputs keep log/sqrt
arguments positive."""
import math

import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def math_f64(X: dace.float64[N], Y: dace.float64[N], I: dace.int32[N], O: dace.float64[N, 6],
             P: dace.int32[N]):
    for i in dace.map[0:N]:
        with dace.tasklet:
            x << X[i]
            y << Y[i]
            k << I[i]
            o0 >> O[i, 0]
            o1 >> O[i, 1]
            o2 >> O[i, 2]
            o3 >> O[i, 3]
            o4 >> O[i, 4]
            o5 >> O[i, 5]
            p >> P[i]
            o0 = math.exp(-x * x) + math.log(abs(x) + 1.0) + math.sqrt(abs(y))
            o1 = math.sin(x) * math.cos(y) + math.tanh(x - y)
            o2 = min(x, y) - max(x, 2.0 * y) + floor(x * 3.0) - ceil(y * 3.0)
            o3 = x ** 2 + abs(y) ** 0.5 + math.pow(abs(x) + 1.0, 1.5) + (abs(y) + 0.5) ** 2.5
            o4 = dace.float64(k // 3) + dace.float64(k % 5) * 0.25
            o5 = x if (x > y and not (k % 2 == 0)) or y < -1.0 else y * 0.5
            p = 1 if (x >= 0.0) != (y >= 0.0) else 0


program = math_f64
OUTPUTS = ['O', 'P']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(tasklets=1, maps='GPU_Device')


def make_inputs(rng):
    n = 256
    return dict(X=rng.uniform(-3, 3, n), Y=rng.uniform(-3, 3, n),
                I=rng.integers(0, 1000, n).astype(np.int32),
                O=np.zeros((n, 6)), P=np.zeros(n, np.int32), N=n)


def reference(inp):
    x, y, k = inp['X'], inp['Y'], inp['I']
    O = np.empty((len(x), 6))
    O[:, 0] = np.exp(-x * x) + np.log(np.abs(x) + 1.0) + np.sqrt(np.abs(y))
    O[:, 1] = np.sin(x) * np.cos(y) + np.tanh(x - y)
    O[:, 2] = np.minimum(x, y) - np.maximum(x, 2.0 * y) + np.floor(x * 3.0) - np.ceil(y * 3.0)
    O[:, 3] = x ** 2 + np.abs(y) ** 0.5 + (np.abs(x) + 1.0) ** 1.5 + (np.abs(y) + 0.5) ** 2.5
    O[:, 4] = (k // 3).astype(np.float64) + (k % 5) * 0.25
    O[:, 5] = np.where(((x > y) & ~(k % 2 == 0)) | (y < -1.0), x, y * 0.5)
    P = np.where((x >= 0.0) != (y >= 0.0), 1, 0).astype(np.int32)
    return dict(O=O, P=P)
